# Shared by scripts/demo and scripts/test: install what is missing, configure and build.
# Sourced, not run. Honours:
#   XPOSE_BUILD_DIR        build directory (default: build)
#   XPOSE_CUDA_ARCHS       CMAKE_CUDA_ARCHITECTURES (default: native where a GPU is visible, else 90)
#   XPOSE_CMAKE_ARGS       extra arguments for cmake
#   XPOSE_SKIP_INSTALL=1   do not touch system packages

XPOSE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
XPOSE_BUILD_DIR=${XPOSE_BUILD_DIR:-$XPOSE_ROOT/build}

# Debian 12 packages: compiler, CMake, Open MPI, parallel HDF5 and its tools, Boost, GoogleTest,
# FFTW (the FFT examples), Python with h5py/numpy (the end-to-end tests' reference), the Python
# module's build and tests (headers, pybind11, DLPack, mpi4py, pytest), and help2man and man-db
# (the man page and its test), and SimGrid (the exchange on simulated clusters, sim/).
XPOSE_PACKAGES=(build-essential cmake pkg-config openmpi-bin libopenmpi-dev libhdf5-openmpi-dev hdf5-tools
  libboost-program-options-dev libgtest-dev libfftw3-dev libfftw3-mpi-dev python3 python3-numpy python3-h5py time
  python3-netcdf4 netcdf-bin python3-dev pybind11-dev libdlpack-dev python3-mpi4py python3-pytest help2man man-db libsimgrid-dev)

xpose_log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

xpose_install_packages() {
  [ "${XPOSE_SKIP_INSTALL:-0}" = 1 ] && return 0
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  xpose_log "installing: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: missing packages (${missing[*]}) and not root; install them first" >&2; return 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

xpose_cuda_archs() {
  if [ -n "${XPOSE_CUDA_ARCHS:-}" ]; then echo "$XPOSE_CUDA_ARCHS"
  elif command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then echo native
  else echo 90; fi
}

xpose_build() {
  xpose_install_packages "${XPOSE_PACKAGES[@]}"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  xpose_log "configuring in $XPOSE_BUILD_DIR"
  local cuda=()
  if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda=(-DCMAKE_CUDA_ARCHITECTURES="$(xpose_cuda_archs)")
    [ -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null && cuda+=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
  fi
  # shellcheck disable=SC2086
  cmake -S "$XPOSE_ROOT" -B "$XPOSE_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" ${XPOSE_CMAKE_ARGS:-} >/dev/null
  xpose_log "building with $jobs jobs"
  cmake --build "$XPOSE_BUILD_DIR" -j "$jobs"
}

# Open MPI refuses root and more ranks than cores unless told; a demo or test run is both.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
