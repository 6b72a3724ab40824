#!/usr/bin/env bash
# The mpirun scripts users copy (jobs/mpirun-local.sh, jobs/mpirun-hostfile.sh), run unchanged on
# this machine with 2 ranks:
#   1. mpirun-local.sh transposes a small generated matrix; `xpose verify` accepts the output and
#      the JSON summary reports success;
#   2. mpirun-hostfile.sh does the same with a hostfile naming this machine;
#   3. Ctrl-C (SIGINT to the script's process group) with a stand-in for xpose: the script turns it
#      into SIGUSR1 for the ranks, which exit 75, and the script exits 75 with the resume command.
#
#   run_mpirun_test.sh XPOSE_BINARY REPO_ROOT
set -euo pipefail

XPOSE=${1:?usage: run_mpirun_test.sh XPOSE_BINARY REPO_ROOT}
REPO=${2:?usage: run_mpirun_test.sh XPOSE_BINARY REPO_ROOT}
XPOSE=$(cd "$(dirname "$XPOSE")" && pwd)/$(basename "$XPOSE")
REPO=$(cd "$REPO" && pwd)

say() { printf 'mpirun test: %s\n' "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/xpose-mpirun.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

# A test machine runs as root, in a container, with fewer cores than ranks at times.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export MPIRUN_ARGS=--oversubscribe

"$XPOSE" generate in.h5:/m --shape 300x500 --dtype float64 --quiet || fail "xpose generate could not write the input"

check_output() {  # NAME OUT JSON
  "$XPOSE" verify in.h5:/m "$2" || fail "$1: the output does not verify"
  [ -f "$3" ] || fail "$1: no JSON summary $3"
  grep -Eq '"exit_code": *0[,}[:space:]]' "$3" || fail "$1: the JSON summary does not report exit code 0: $(cat "$3")"
  grep -Eq '"ranks": *2[,}[:space:]]' "$3" || fail "$1: the JSON summary does not report 2 ranks: $(cat "$3")"
  say "$1: exit 0, output verified, summary $3"
}

# 1. one machine
status=0
XPOSE=$XPOSE IN=in.h5:/m OUT=out-local.h5:/m NP=2 JSON=local.json "$REPO/jobs/mpirun-local.sh" || status=$?
[ "$status" -eq 0 ] || fail "mpirun-local.sh exited $status"
check_output mpirun-local.sh out-local.h5:/m local.json

# 2. a hostfile naming this machine
echo "localhost slots=2" >hosts
status=0
XPOSE=$XPOSE IN=in.h5:/m OUT=out-hostfile.h5:/m HOSTFILE=hosts RANKS_PER_NODE=2 JSON=hostfile.json \
  "$REPO/jobs/mpirun-hostfile.sh" --quiet || status=$?
[ "$status" -eq 0 ] || fail "mpirun-hostfile.sh exited $status"
check_output mpirun-hostfile.sh out-hostfile.h5:/m hostfile.json

# 3. Ctrl-C. Job control (set -m) gives the script its own process group with SIGINT not ignored,
# as a shell at a terminal would; the group then gets SIGINT, as Ctrl-C sends it.
mkdir marks
set -m
XPOSE=$REPO/tests/slurm/fake_xpose.sh FAKE_XPOSE_DIR=$TMP/marks IN=in.h5:/m OUT=never.h5:/m NP=2 \
  "$REPO/jobs/mpirun-local.sh" >ctrl-c.log 2>&1 &
script=$!
set +m
for _ in $(seq 300); do [ "$(find marks -name 'started.*' | wc -l)" -ge 2 ] && break; sleep 0.1; done
[ "$(find marks -name 'started.*' | wc -l)" -ge 2 ] || { cat ctrl-c.log; fail "the stand-in ranks did not start"; }
kill -INT -- "-$script"
status=0
wait "$script" || status=$?
echo "--- ctrl-c.log"; cat ctrl-c.log; echo "---"
[ "$status" -eq 75 ] || fail "after Ctrl-C mpirun-local.sh exited $status, not 75"
[ "$(grep -o 'fake xpose rank [0-9]*: signalled, stopping' ctrl-c.log | sort -u | wc -l)" -eq 2 ] ||
  fail "after Ctrl-C not both ranks got SIGUSR1"
grep -q -- '--resume' ctrl-c.log || fail "after Ctrl-C the script does not show how to resume"
say "mpirun-local.sh: Ctrl-C became SIGUSR1 for both ranks, exit 75, resume command shown"
say "PASSED"
