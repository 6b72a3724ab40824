# Spack recipe for xpose. Copy it into a Spack repository as packages/xpose/package.py, then
# build a clone of this repository:
#   spack repo create ~/xpose-repo && mkdir -p ~/xpose-repo/packages/xpose
#   cp packaging/spack/package.py ~/xpose-repo/packages/xpose/ && spack repo add ~/xpose-repo
#   spack develop --path "$PWD" xpose@main && spack add xpose@main +cuda cuda_arch=90 && spack install
# Variants are the CMake options: +cuda (XPOSE_ENABLE_CUDA, with cuda_arch ->
# CMAKE_CUDA_ARCHITECTURES), +nccl (XPOSE_ENABLE_NCCL), +python (XPOSE_PYTHON), +bench
# (XPOSE_BUILD_BENCH); XPOSE_BUILD_TESTS follows `spack install --test`.
from spack.package import *


class Xpose(CMakePackage, CudaPackage):
    """Distributed, out-of-core transpose of matrices stored in HDF5 (MPI, parallel HDF5, CUDA),
    and an in-memory distributed transpose for FFT pipelines; a C++ library, a command-line
    tool and a Python module."""

    version("main")

    variant("nccl", default=True, when="+cuda", description="The NCCL exchange between GPUs")
    variant("python", default=True, description="The xpose Python module (pybind11, DLPack)")
    variant("bench", default=False, description="The benchmark programs of bench/")

    depends_on("cxx", type="build")
    depends_on("c", type="build")
    depends_on("cmake@3.24:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("help2man", type="build")
    depends_on("mpi")
    depends_on("hdf5@1.10:+mpi")
    depends_on("boost@1.65:+program_options")
    depends_on("nccl", when="+nccl")
    depends_on("googletest", type="test")
    depends_on("fftw+mpi", type="test")
    depends_on("py-h5py", type="test")

    extends("python", when="+python")
    depends_on("python@3.8:", when="+python", type=("build", "run"))
    depends_on("py-pybind11@2.6:", when="+python", type="build")
    depends_on("dlpack", when="+python", type="build")
    depends_on("py-numpy", when="+python", type=("build", "run", "test"))
    depends_on("py-mpi4py", when="+python", type=("run", "test"))
    depends_on("py-pytest", when="+python", type="test")

    conflicts("cuda_arch=none", when="+cuda", msg="name the GPU architectures: cuda_arch=90")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("XPOSE_ENABLE_CUDA", "cuda"),
            self.define("XPOSE_ENABLE_NCCL", spec.satisfies("+nccl")),
            self.define_from_variant("XPOSE_PYTHON", "python"),
            self.define_from_variant("XPOSE_BUILD_BENCH", "bench"),
            self.define("XPOSE_BUILD_TESTS", self.run_tests),
            self.define("HDF5_ROOT", spec["hdf5"].prefix),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(spec.variants["cuda_arch"].value)))
        if spec.satisfies("+python"):
            args.append(self.define("Python_EXECUTABLE", spec["python"].command.path))
            args.append(self.define("XPOSE_PYTHON_INSTALL_DIR", python_platlib))
        return args

    def setup_build_environment(self, env):
        if self.spec.satisfies("+nccl"):
            env.set("NCCL_HOME", self.spec["nccl"].prefix)  # where CMakeLists.txt looks for NCCL

    def check(self):
        with working_dir(self.build_directory):
            ctest("--output-on-failure", "-LE", "gpu|slurm")
