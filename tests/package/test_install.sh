#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then what a user of the installed xpose does: the
# CLI from the prefix, a downstream project built with find_package(xpose) and another built
# with pkg-config, each run under `mpiexec -n 2`, the Python module imported from the prefix's
# site-packages, and the installed man page rendered.
#   test_install.sh BUILD_DIR SOURCE_DIR PYTHON SITE_PACKAGES_RELATIVE MPIEXEC...
# (PYTHON and SITE_PACKAGES_RELATIVE are "none" in a build without the Python module.)
set -euo pipefail
build=$1 source=$2 python=$3 site=$4
shift 4
mpiexec=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/xpose-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/xpose include/xpose/distributed_transpose.h include/xpose/file_transpose.h \
         include/xpose/file_verify.h include/xpose/comm_handle.h include/xpose/config.h lib/libxpose.so \
         lib/cmake/xpose/xposeConfig.cmake lib/pkgconfig/xpose.pc share/man/man1/xpose.1 \
         "$([ "$python" = none ] || echo "$site/xpose/__init__.py")"; do
  [ -z "$f" ] || [ -e "$prefix/$f" ] || fail "not installed: $f"
done
# No public header may reach back into the source tree.
if grep -rhE '#include "(engine|io|mpi|kernels)/' "$prefix/include/xpose"; then fail "a public header includes a private one"; fi

# The installed CLI makes an input (and another of the same shape, which the downstream programs'
# verify_file must tell apart); the downstream programs transpose it; the CLI verifies.
"${mpiexec[@]}" -n 2 "$prefix/bin/xpose" generate "$work/in.h5:/m" --shape 40x24 --dtype complex64 --quiet
"${mpiexec[@]}" -n 2 "$prefix/bin/xpose" generate "$work/other.h5:/m" --shape 40x24 --dtype complex64 --seed 7 --quiet

cmake -S "$source/tests/package/downstream" -B "$work/downstream" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; fail "find_package(xpose)"; }
cmake --build "$work/downstream" >"$work/build.log" || { cat "$work/build.log"; fail "downstream build"; }
"${mpiexec[@]}" -n 2 "$work/downstream/downstream" "$work/in.h5:/m" "$work/cmake.h5:/m" "$work/other.h5:/m" | tee "$work/cmake.out"
grep -q '"status":"ok"' "$work/cmake.out" || fail "no summary from transpose_file"
"${mpiexec[@]}" -n 2 "$prefix/bin/xpose" verify "$work/in.h5:/m" "$work/cmake.h5:/m" --quiet

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pkg-config --exists xpose || fail "pkg-config does not find xpose"
# shellcheck disable=SC2046
c++ -std=c++17 -O1 "$source/tests/package/downstream/main.cpp" -o "$work/downstream_pc" \
    $(pkg-config --cflags --libs xpose) -Wl,-rpath,"$(pkg-config --variable=libdir xpose)"
"${mpiexec[@]}" -n 2 "$work/downstream_pc" "$work/in.h5:/m" "$work/pc.h5:/m" "$work/other.h5:/m" | tee "$work/pc.out"
"${mpiexec[@]}" -n 2 "$prefix/bin/xpose" verify "$work/in.h5:/m" "$work/pc.h5:/m" --quiet

# The Python package from the prefix, not from the build tree.
[ "$python" = none ] || PYTHONPATH=$prefix/$site "${mpiexec[@]}" -n 2 "$python" -c "
import numpy as np, xpose
assert xpose.__file__.startswith('$prefix'), xpose.__file__
s = xpose.transpose('$work/in.h5:/m', '$work/py.h5:/m')
assert s['status'] == 'ok' and s['ranks'] == 2, s
"
[ "$python" = none ] || "${mpiexec[@]}" -n 2 "$prefix/bin/xpose" verify "$work/in.h5:/m" "$work/py.h5:/m" --quiet

# The man page renders without troff warnings and says what the CLI's help says.
LC_ALL=C MANWIDTH=100 man --warnings -l "$prefix/share/man/man1/xpose.1" >"$work/man.txt" 2>"$work/man.err" ||
  fail "man -l: $(cat "$work/man.err")"
[ ! -s "$work/man.err" ] || fail "man -l warned: $(cat "$work/man.err")"
# Justified lines get extra spaces wherever groff puts them: compare with runs of spaces as one.
tr -s ' ' <"$work/man.txt" >"$work/man-squeezed.txt"
for text in "transpose IN.h5:/path" "--host-mem" "resume refused" "verify"; do
  grep -qF -- "$text" "$work/man-squeezed.txt" || fail "the man page lacks '$text'"
done
echo "install test: ok"
