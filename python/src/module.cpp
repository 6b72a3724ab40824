// The compiled half of the xpose Python package (python/xpose/__init__.py is the API).
// It includes no MPI header: communicators arrive as handle values (mpi4py's MPI._handleof)
// and libxpose turns them back into MPI_Comm, so the module builds where only libxpose and
// its runtime libraries are.
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xpose/comm_handle.h"
#include "xpose/distributed_transpose.h"
#include "xpose/file_transpose.h"
#include "xpose/types.h"
#include "xpose/version.h"

namespace py = pybind11;

namespace {

using xpose::CommHandle;
using xpose::DistributedTranspose;
using xpose::UsageError;
using Extents = std::vector<std::int64_t>;

// xpose.Error's subclasses by exit code, registered once by __init__.py; they live as long as
// the interpreter, so the references are never dropped.
std::map<int, PyObject*>& error_classes() {
  static std::map<int, PyObject*> classes;
  return classes;
}

CommHandle comm_of(const std::optional<std::uint64_t>& handle) {
  return handle ? CommHandle::from_value(*handle) : CommHandle::world();
}

std::string format_extents(const Extents& e) {
  std::string s = "(";
  for (std::size_t i = 0; i < e.size(); ++i) s += (i ? ", " : "") + std::to_string(e[i]);
  return s + (e.size() == 1 ? ",)" : ")");
}

// NumPy's kind letters: 'f' float, 'c' complex, 'i' signed, 'u' unsigned, 'b' bool, 'V' bytes.
xpose::ElementType element_type(char kind, std::size_t size) {
  switch (kind) {
    case 'f':
      return {xpose::ElementKind::Float, size};
    case 'c':
      return {xpose::ElementKind::Complex, size};
    case 'i':
      return {xpose::ElementKind::SignedInt, size};
    case 'u':
    case 'b':
      return {xpose::ElementKind::UnsignedInt, size};
    default:
      return xpose::ElementType::bytes(size);
  }
}

// What execute needs to know of an array, from NumPy or from DLPack.
struct ArrayView {
  void* data = nullptr;
  bool device = false;       ///< CUDA memory
  bool known_memory = true;  ///< host or CUDA memory (not another device's)
  char kind = 'V';
  std::size_t itemsize = 0;
  Extents shape;
  bool contiguous = false;  ///< C order, no gaps
  bool writeable = true;
};

ArrayView view_of(const py::array& a) {
  ArrayView v;
  v.data = const_cast<void*>(a.data());
  v.kind = a.dtype().kind();
  v.itemsize = static_cast<std::size_t>(a.itemsize());
  v.shape.assign(a.shape(), a.shape() + a.ndim());
  v.contiguous = (a.flags() & py::array::c_style) != 0;
  v.writeable = a.writeable();
  return v;
}

// A DLPack tensor taken from its capsule, which is renamed "used_dltensor" as the protocol
// asks; the producer's deleter runs on destruction (with the GIL held: destroy it there).
class DlpackTensor {
 public:
  explicit DlpackTensor(const py::capsule& capsule) {
    const char* name = PyCapsule_GetName(capsule.ptr());
    if (name == nullptr || std::strcmp(name, "dltensor") != 0)
      throw UsageError("execute: not an unused DLPack capsule");
    managed_ = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
    if (managed_ == nullptr) throw py::error_already_set();
    if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0) throw py::error_already_set();
  }
  ~DlpackTensor() {
    if (managed_ && managed_->deleter) managed_->deleter(managed_);
  }
  DlpackTensor(const DlpackTensor&) = delete;
  DlpackTensor& operator=(const DlpackTensor&) = delete;

  ArrayView view() const {
    const DLTensor& t = managed_->dl_tensor;
    ArrayView v;
    v.data = static_cast<char*>(t.data) + t.byte_offset;
    const auto type = t.device.device_type;
    v.device = type == kDLCUDA || type == kDLCUDAManaged;
    v.known_memory = v.device || type == kDLCPU || type == kDLCUDAHost;
    // DLPack's type codes; 6 is kDLBool (DLPack 0.8, newer than some installed headers).
    static const char kinds[] = {'i', 'u', 'f', 'V', 'f', 'c', 'b'};
    v.kind = t.dtype.code < sizeof kinds ? kinds[t.dtype.code] : 'V';
    v.itemsize = static_cast<std::size_t>(t.dtype.bits) * t.dtype.lanes / 8;
    v.shape.assign(t.shape, t.shape + t.ndim);
    v.contiguous = true;
    if (t.strides != nullptr) {  // null strides mean C order
      std::int64_t expected = 1;
      for (int d = t.ndim - 1; d >= 0; --d) {
        if (t.shape[d] != 1 && t.strides[d] != expected) v.contiguous = false;
        expected *= t.shape[d];
      }
    }
    return v;
  }

 private:
  DLManagedTensor* managed_ = nullptr;
};

/// A DistributedTranspose for Python: the array checks of execute, agreed by all ranks.
class Plan {
 public:
  Plan(std::optional<std::uint64_t> comm, const Extents& shape, char kind, std::size_t itemsize,
       const std::string& memory, const std::string& transport, const std::string& schedule,
       const std::string& planning, const std::string& wisdom_file, int threads, bool verbose)
      : kind_(kind), itemsize_(itemsize), batched_(shape.size() == 3), device_(memory == "device") {
    // Everything checked here depends on the arguments alone, so every rank throws alike.
    if (shape.size() != 2 && shape.size() != 3)
      throw UsageError(
          "DistributedTranspose: shape must be (rows, cols) or (batch, rows, cols), "
          "not " +
          format_extents(shape));
    if (memory != "host" && memory != "device")
      throw UsageError("DistributedTranspose: memory must be 'host' or 'device', not '" + memory +
                       "'");
    if (planning != "measure" && planning != "estimate")
      throw UsageError("DistributedTranspose: planning must be 'measure' or 'estimate', not '" +
                       planning + "'");
    DistributedTranspose::Options o;
    o.memory = memory == "device" ? xpose::MemorySpace::Device : xpose::MemorySpace::Host;
    o.batch = shape.size() == 3 ? shape[0] : 1;
    o.transport = xpose::parse_transport(transport);
    o.schedule = xpose::parse_schedule(schedule);
    o.planning = planning == "measure" ? xpose::Planning::Measure : xpose::Planning::Estimate;
    o.wisdom_file = wisdom_file;
    o.threads = threads;
    o.verbose = verbose;
    const std::int64_t rows = shape[shape.size() - 2], cols = shape.back();
    const CommHandle handle = comm_of(comm);
    py::gil_scoped_release unlocked;
    plan_ =
        std::make_unique<DistributedTranspose>(handle, rows, cols, element_type(kind, itemsize), o);
  }

  ~Plan() {
    // After MPI_Finalize the communicator cannot be freed: leak the plan rather than crash.
    if (plan_ && !xpose::mpi_runtime::active()) (void)plan_.release();
  }

  void close() {
    if (!plan_) return;
    if (!xpose::mpi_runtime::active()) {
      (void)plan_.release();
      return;
    }
    py::gil_scoped_release unlocked;
    plan_.reset();
  }
  bool closed() const { return !plan_; }

  Extents local_input_shape() const { return local_shape(get().local_input_rows(), get().cols()); }
  Extents local_output_shape() const {
    return local_shape(get().local_output_rows(), get().rows());
  }
  Extents input_offset() const { return offset(get().input_row_offset()); }
  Extents output_offset() const { return offset(get().output_row_offset()); }
  std::int64_t local_inplace_size() const {
    return static_cast<std::int64_t>(get().local_inplace_bytes() / itemsize_);
  }
  int rank() const { return get().rank(); }
  int ranks() const { return get().ranks(); }
  std::string transport() const { return xpose::transport_name(get().transport()); }
  std::string schedule() const { return xpose::schedule_name(get().schedule()); }
  std::int64_t chunk_bytes() const { return get().chunk_bytes(); }
  std::string report() const { return get().report(); }

  /// Raises `message` on every rank: a rank whose arguments failed before reaching the plan
  /// still takes part in the agreement the other ranks' execute makes.
  void fail(const std::string& message) {
    const CommHandle comm = get().comm();
    py::gil_scoped_release unlocked;
    xpose::collectively(comm, [&] { throw UsageError(message); });
  }

  void execute_host(const py::array& in, const py::array& out) {
    const std::string problem = check(view_of(in), local_input_shape(), "input", false) +
                                check(view_of(out), local_output_shape(), "output", true);
    run(problem, [&] { get().execute(in.data(), const_cast<void*>(out.data())); });
  }
  void execute_host_inplace(const py::array& buffer) {
    const ArrayView v = view_of(buffer);
    const std::string problem = check_inplace(v);
    run(problem, [&] { get().execute_inplace(v.data); });
  }
  /// For bench/python_inmem.py: the C++ API on raw pointers (device or host, as planned),
  /// `repeat` times without returning to Python, to measure what the binding adds around it.
  void execute_pointers(std::uintptr_t in, std::uintptr_t out, std::uintptr_t stream, int repeat) {
    DistributedTranspose& plan = get();
    py::gil_scoped_release unlocked;
    for (int i = 0; i < repeat; ++i)
      plan.execute(reinterpret_cast<const void*>(in), reinterpret_cast<void*>(out),
                   to_stream(stream));
  }
  void execute_dlpack(const py::capsule& in, const py::capsule& out, std::uintptr_t stream) {
    const DlpackTensor a(in), b(out);  // released after the work is queued, with the GIL held
    const std::string problem = check(a.view(), local_input_shape(), "input", false) +
                                check(b.view(), local_output_shape(), "output", true);
    run(problem, [&] { get().execute(a.view().data, b.view().data, to_stream(stream)); });
  }
  void execute_dlpack_inplace(const py::capsule& buffer, std::uintptr_t stream) {
    const DlpackTensor a(buffer);
    const ArrayView v = a.view();
    const std::string problem = check_inplace(v);
    run(problem, [&] { get().execute_inplace(v.data, to_stream(stream)); });
  }

 private:
  DistributedTranspose& get() const {
    if (!plan_) throw UsageError("DistributedTranspose: the plan is closed");
    return *plan_;
  }
  // A (batch, rows, cols) plan keeps its batch axis even where batch is 1.
  Extents local_shape(std::int64_t rows, std::int64_t cols) const {
    if (batched_) return {get().batch(), rows, cols};
    return {rows, cols};
  }
  Extents offset(std::int64_t row) const {
    if (batched_) return {0, row, 0};
    return {row, 0};
  }
  static DistributedTranspose::Stream to_stream(std::uintptr_t stream) {
    return reinterpret_cast<DistributedTranspose::Stream>(stream);
  }

  std::string type_problem(const ArrayView& v, const char* what) const {
    if (v.itemsize != itemsize_ || (kind_ != 'V' && v.kind != kind_))
      return std::string(what) + " has elements of kind '" + v.kind + "' and " +
             std::to_string(v.itemsize) + " bytes, the plan '" + kind_ + "' and " +
             std::to_string(itemsize_) + "; ";
    return "";
  }
  std::string memory_problem(const ArrayView& v, const char* what) const {
    if (!v.known_memory) return std::string(what) + " is neither host nor CUDA memory; ";
    if (v.device != device_)
      return std::string(what) + " is in " + (v.device ? "device" : "host") +
             " memory and the plan is for " + (device_ ? "device" : "host") + " memory; ";
    return "";
  }

  std::string check(const ArrayView& v, const Extents& shape, const char* what,
                    bool written) const {
    std::string p = memory_problem(v, what) + type_problem(v, what);
    if (v.shape != shape)
      p += std::string(what) + " has shape " + format_extents(v.shape) + ", this rank's is " +
           format_extents(shape) + "; ";
    if (!v.contiguous) p += std::string(what) + " is not C-contiguous; ";
    if (written && !v.writeable) p += std::string(what) + " is read-only; ";
    return p;
  }
  std::string check_inplace(const ArrayView& v) const {
    std::string p = memory_problem(v, "buffer") + type_problem(v, "buffer");
    std::int64_t n = 1;
    for (auto e : v.shape) n *= e;
    if (n < local_inplace_size())
      p += "buffer has " + std::to_string(n) + " elements and this rank needs " +
           std::to_string(local_inplace_size()) + " (local_inplace_size); ";
    if (!v.contiguous) p += "buffer is not C-contiguous; ";
    if (!v.writeable) p += "buffer is read-only; ";
    return p;
  }

  template <typename Work>
  void run(const std::string& problem, const Work& work) {
    const CommHandle comm = get().comm();
    const int me = get().rank();
    py::gil_scoped_release unlocked;
    xpose::collectively(comm, [&] {
      if (!problem.empty())
        throw UsageError("execute on rank " + std::to_string(me) + ": " +
                         problem.substr(0, problem.size() - 2));
    });
    work();
  }

  std::unique_ptr<DistributedTranspose> plan_;
  char kind_;
  std::size_t itemsize_;
  bool batched_;
  bool device_;
};

std::string transpose_file(const std::string& input, const std::string& output,
                           const std::vector<std::string>& axes, std::int64_t host_mem,
                           std::int64_t gpu_mem, const std::string& backend,
                           const std::string& exchange, const std::string& io,
                           const std::string& trace, bool resume, bool force, bool quiet,
                           double progress_interval, std::optional<std::uint64_t> comm) {
  xpose::FileTransposeOptions o;
  o.input = input;
  o.output = output;
  o.axes = axes;
  o.host_mem = host_mem;
  o.gpu_mem = gpu_mem;
  o.backend = backend;
  o.exchange = exchange;
  o.io = io;
  o.trace = trace;
  o.resume = resume;
  o.force = force;
  o.quiet = quiet;
  o.progress_interval = progress_interval;
  const CommHandle handle = comm_of(comm);
  py::gil_scoped_release unlocked;
  return xpose::transpose_file(o, handle).json();
}

}  // namespace

PYBIND11_MODULE(_xpose, m) {
  m.doc() = "xpose's compiled core; use the xpose package";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const xpose::Error& e) {
      const auto it = error_classes().find(static_cast<int>(e.code()));
      PyErr_SetString(it != error_classes().end() ? it->second : PyExc_RuntimeError, e.what());
    }
  });
  m.def("_register_errors", [](const py::dict& classes) {
    for (auto item : classes) {
      PyObject* cls = item.second.ptr();
      Py_INCREF(cls);
      error_classes()[item.first.cast<int>()] = cls;
    }
  });

  m.def("version", [] { return std::string(xpose::version()); });
  m.def("built_with_cuda", &xpose::built_with_cuda);
  m.def("built_with_nccl", &xpose::built_with_nccl);
  m.def("parse_size", &xpose::parse_size, "'8GiB', '256M', '4096' -> bytes");

  m.def("_mpi_initialize", &xpose::mpi_runtime::initialize);
  m.def("_mpi_active", &xpose::mpi_runtime::active);
  m.def("_mpi_finalize", [] {
    py::gil_scoped_release unlocked;
    xpose::mpi_runtime::finalize();
  });
  m.def("_mpi_library_version", &xpose::mpi_runtime::library_version);
  m.def("_comm_rank", [](std::optional<std::uint64_t> c) { return comm_of(c).rank(); });
  m.def("_comm_size", [](std::optional<std::uint64_t> c) { return comm_of(c).size(); });

  m.def("_transpose_file", &transpose_file);

  py::class_<Plan>(m, "_Plan")
      .def(py::init<std::optional<std::uint64_t>, const Extents&, char, std::size_t,
                    const std::string&, const std::string&, const std::string&, const std::string&,
                    const std::string&, int, bool>())
      .def("close", &Plan::close)
      .def_property_readonly("closed", &Plan::closed)
      .def_property_readonly("local_input_shape", &Plan::local_input_shape)
      .def_property_readonly("local_output_shape", &Plan::local_output_shape)
      .def_property_readonly("input_offset", &Plan::input_offset)
      .def_property_readonly("output_offset", &Plan::output_offset)
      .def_property_readonly("local_inplace_size", &Plan::local_inplace_size)
      .def_property_readonly("rank", &Plan::rank)
      .def_property_readonly("ranks", &Plan::ranks)
      .def_property_readonly("transport", &Plan::transport)
      .def_property_readonly("schedule", &Plan::schedule)
      .def_property_readonly("chunk_bytes", &Plan::chunk_bytes)
      .def("report", &Plan::report)
      .def("fail", &Plan::fail)
      .def("execute_host", &Plan::execute_host)
      .def("execute_host_inplace", &Plan::execute_host_inplace)
      .def("_execute_pointers", &Plan::execute_pointers)
      .def("execute_dlpack", &Plan::execute_dlpack)
      .def("execute_dlpack_inplace", &Plan::execute_dlpack_inplace);
}
