// The `xpose` command: transpose, info, plan, generate, verify.
#include <mpi.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/src/axes.h"
#include "engine/src/file_transpose_summary.h"
#include "engine/src/tools.h"
#include "engine/src/transpose_job.h"
#include "engine/src/whole_file.h"
#include "io/dimension_scales.h"
#include "kernels/choice.h"
#include "mpi/comm.h"
#include "xpose/config.h"
#include "xpose/error.h"

namespace po = boost::program_options;

namespace xpose {
namespace {

const char* kExitCodes =
    "Exit codes:\n"
    "  0   success\n"
    "  1   internal error (a bug: please report it)\n"
    "  2   usage: bad command line\n"
    "  3   input not found: missing file or dataset, or a group where a dataset is expected\n"
    "  4   input unreadable: not a regular file, not an HDF5 file, truncated or corrupt, no permission\n"
    "  5   input unsupported: rank < 2 (or > 8 with --axes), variable-length or reference type,\n"
    "      element size not 1/2/4/8/16, a size in bytes past 64 bits\n"
    "  6   output refused: output exists (use --force) or is not a regular file, equals the input, its\n"
    "      directory is missing or not writable, a name xpose writes is taken (a symbolic link, a file\n"
    "      xpose did not create) or too long, another xpose run is writing it, --json/--trace unwritable\n"
    "  7   I/O failure during the run (read or write error, disk full, the input changed); the partial\n"
    "      output and the journal are removed\n"
    "  8   verify: the output is not the transpose of the input\n"
    "  9   resources: memory budget too small, or memory allocation failed\n"
    "  10  runtime: MPI, CUDA or NCCL failure\n"
    "  11  resume refused: the journal belongs to another input, plan or option set, or is damaged\n"
    "  75  interrupted by SIGTERM/SIGUSR1 after a clean stage: rerun with --resume\n";

const char* kTopHelp =
    "xpose " XPOSE_VERSION " - distributed, out-of-core transpose of HDF5 matrices\n"
    "\n"
    "Usage: [mpirun -np N] xpose <command> [options]\n"
    "\n"
    "Commands:\n"
    "  transpose IN.h5:/path OUT.h5:/path  write OUT = IN^T (the last two axes swapped; leading\n"
    "                                      axes are a batch; --axes for any axis order) into a new\n"
    "                                      file; IN.nc OUT.nc --axes NAMES: every variable of a file\n"
    "  info      FILE.h5:/path             shape, type, layout, chunking, and the plan for this\n"
    "                                      number of ranks\n"
    "  plan      IN.h5:/path OUT.h5:/path  dry run: stages, stage width, memory per rank, bytes\n"
    "                                      read, written and exchanged\n"
    "  generate  OUT.h5:/path --shape S    write a deterministic sample dataset\n"
    "  verify    IN.h5:/path OUT.h5:/path  check that OUT is the transpose of IN\n"
    "\n"
    "'xpose <command> --help' describes a command's options. SIZE arguments take bytes or\n"
    "K/M/G/T with or without 'iB' (powers of 1024): 4096, 256MiB, 2G.\n"
    "\n";

struct Command {
  std::string name;
  std::string synopsis;
  po::options_description options;
  po::positional_options_description positional;
};

void add_common(po::options_description& d) {
  d.add_options()("help,h", "show this help")("quiet,q", "print nothing but errors and warnings");
}

void add_transpose_options(po::options_description& d) {
  d.add_options()
      ("host-mem", po::value<std::string>(),
       "SIZE of stage buffers per rank (default: a quarter of the node's available memory "
       "shared by its ranks). Matrices larger than this, or than RAM, stream through it. Given "
       "explicitly, it also bounds the mapped input pages kept resident (slower when a rank's input "
       "rows exceed it)")
      ("force,f", "replace the output file if it exists")
      ("chunk", po::value<std::string>(), "chunk the output dataset, e.g. 1024x1024 (default: contiguous)")
      ("compress", po::value<std::string>(),
       "compress the output: gzip or gzip:LEVEL (0-9, default 4), with the shuffle filter; chunked "
       "by --chunk or in chunks of about 1 MiB of whole trailing rows")
      ("threads", po::value<int>(), "CPU threads per rank, at least 1 (default: the node's cores over its ranks)")
      ("io", po::value<std::string>(),
       "how data is read and written: auto (the default: direct memory-mapped reads and positioned "
       "writes of contiguous, unfiltered datasets in the named file; collective HDF5 otherwise), "
       "collective or independent (always through HDF5 and MPI-IO)")
      ("backend", po::value<std::string>(),
       "where pieces are transposed: cuda, cpu, or auto (the default: where every rank sees a GPU, "
       "a short calibration picks the faster of the two; elsewhere cpu)")
      ("gpu-mem", po::value<std::string>(),
       "SIZE of GPU stage buffers per rank (default: 60% of the GPU's free memory, shared by the "
       "ranks that use it)")
      ("exchange", po::value<std::string>(),
       "transport between ranks: mpi (host-staged MPI_Alltoall(v)), mpi-node (host-staged, one "
       "message per pair of nodes, combined in node memory), mpi-pairwise (host-staged pairwise "
       "rounds), nccl (device buffers), mpi-device (CUDA-aware MPI), or auto (the default: the "
       "planner picks mpi or mpi-node from the message size; with cuda, a short collective timing "
       "picks the transport)")
      ("no-overlap", "run the HDF5 reads and writes in line instead of on their own thread")
      ("resume", "continue an interrupted run of the same input, output, ranks and options from its "
       "journal (.OUT.xpose-journal); without one, start from the beginning")
      ("max-stage-width", po::value<std::int64_t>(),
       "cap the columns per destination per stage, at least 1 (default: as the budget allows); for "
       "tests and tuning")
      ("axes", po::value<std::string>(),
       "the output's axis order: axis numbers with NumPy's meaning (2,0,1: output axis i is input "
       "axis i of the list) or dimension names (lat,lon,time, from the input's dimension scales, as "
       "netCDF-4 has them; naming some dimensions reorders just those, as ncpdq -a does). Default: "
       "the last two axes swapped");
}

int parse_compress(const std::string& s) {
  if (s == "none") return -1;
  if (s == "gzip") return 4;
  if (s.size() == 6 && s.compare(0, 5, "gzip:") == 0 && s[5] >= '0' && s[5] <= '9') return s[5] - '0';
  throw UsageError(cat("--compress must be gzip, gzip:LEVEL (0-9) or none, not '", s, "'"));
}

// Every option is parsed and range-checked in one place, below; the engine applies the defaults
// of those not given (transpose_job.h), generate and verify theirs (tools.h).

/// A SIZE option (--host-mem, --gpu-mem); 0 when not given.
std::int64_t size_option(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return 0;
  const std::int64_t bytes = parse_size(vm[name].as<std::string>());
  if (bytes <= 0) throw UsageError(cat("--", name, " must be positive"));
  return bytes;
}

/// A count option (--threads, --max-stage-width): at least 1 when given.
template <typename T>
T count_option(const po::variables_map& vm, const char* name) {
  const T value = vm[name].as<T>();
  if (value < 1) throw UsageError(cat("--", name, " must be at least 1, not ", value));
  return value;
}

TransposeOptions transpose_options(const po::variables_map& vm) {
  TransposeOptions o;
  const std::string in = vm["in"].as<std::string>(), out = vm["out"].as<std::string>();
  if (names_whole_file(in) && names_whole_file(out)) {
    o.in = io::DatasetRef{in, ""};  // whole files: every variable (whole_file.h)
    o.out = io::DatasetRef{out, ""};
  } else {
    o.in = io::DatasetRef::parse(in);
    o.out = io::DatasetRef::parse(out);
  }
  o.host_mem = size_option(vm, "host-mem");
  o.gpu_mem = size_option(vm, "gpu-mem");
  o.force = vm.count("force") > 0;
  if (vm.count("chunk")) o.chunk = parse_shape(vm["chunk"].as<std::string>());
  if (vm.count("threads")) o.threads = count_option<int>(vm, "threads");
  if (vm.count("io")) set_io_mode(o, vm["io"].as<std::string>());
  if (vm.count("exchange")) o.exchange = mpi::parse_exchange_kind(vm["exchange"].as<std::string>());
  if (vm.count("backend")) o.backend = vm["backend"].as<std::string>();
  o.overlap = vm.count("no-overlap") == 0;
  o.resume = vm.count("resume") > 0;
  if (vm.count("trace")) o.trace_path = vm["trace"].as<std::string>();
  o.quiet = vm.count("quiet") > 0;
  if (vm.count("max-stage-width")) o.max_width = count_option<std::int64_t>(vm, "max-stage-width");
  if (vm.count("progress-interval")) {
    const double seconds = vm["progress-interval"].as<double>();
    if (!(seconds > 0) || !std::isfinite(seconds))
      throw UsageError(cat("--progress-interval must be a positive number of seconds, not ", seconds));
    o.progress_interval = seconds;
  }
  if (vm.count("axes")) o.axes = split_axes(vm["axes"].as<std::string>());
  if (vm.count("compress")) o.compress_level = parse_compress(vm["compress"].as<std::string>());
  return o;
}

bool is_root() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r == 0;
}

void print_phase_table(const FileTransposeSummary& s) {
  std::printf("  phase       seconds   GB/s   (each the max over ranks; phases overlap%s)\n",
              s.overlapped ? "" : " only in the wall time: --no-overlap");
  for (const auto& p : s.phases) std::printf("  %-9s %9.3f %7.2f\n", p.name.c_str(), p.seconds, p.gbps);
  std::printf("  io: %s\n", s.io.c_str());
}

void write_json(const std::string& path, const FileTransposeSummary& summary) {
  if (path.empty() || !is_root()) return;
  std::ofstream f(path);
  f << summary.json();
  f.close();
  if (!f) throw IoError(cat("cannot write the JSON summary '", path, "'"));
}

int cmd_transpose_file(const TransposeOptions& o) {
  const WholeFileReport r = run_whole_file(MPI_COMM_WORLD, o);
  if (is_root() && !o.quiet)
    std::printf("xpose: %s -> %s in %.2f s: %zu variable(s) reordered (%s), %zu copied\n", o.in.file.c_str(),
                o.out.file.c_str(), r.wall, r.reordered.size(), format_size(static_cast<double>(r.bytes)).c_str(),
                r.copied.size());
  return 0;
}

int cmd_transpose(const po::variables_map& vm) {
  TransposeOptions o = transpose_options(vm);
  if (o.in.path.empty()) return cmd_transpose_file(o);
  const std::string json_path = vm.count("json") ? vm["json"].as<std::string>() : "";
  // Before any work: a summary that cannot be written must not fail a finished transpose.
  if (!json_path.empty())
    mpi::collectively(MPI_COMM_WORLD, [&] {
      if (is_root()) io::check_writable_path(json_path, "--json");
    });
  TransposeReport report;
  try {
    report = run_transpose(MPI_COMM_WORLD, o);
  } catch (const Error& e) {
    try { write_json(json_path, summarize(o, nullptr, e.code(), e.what())); } catch (const Error&) {}
    throw;
  }
  const FileTransposeSummary summary = summarize(o, &report);
  if (is_root() && !o.quiet) {
    const auto& p = report.plan;
    std::printf("xpose: %s (%s, %s) -> %s in %.2f s, %.2f GB/s, %d rank(s), %lld stage(s)\n", o.in.str().c_str(),
                format_shape(p.shape).c_str(), format_size(static_cast<double>(p.total_bytes())).c_str(),
                o.out.str().c_str(), report.times.wall,
                static_cast<double>(p.total_bytes()) / report.times.wall / 1e9, p.nranks,
                static_cast<long long>(p.num_stages()));
    print_phase_table(summary);
    if (!report.backend_choice.empty()) std::printf("  %s\n", report.backend_choice.c_str());
    if (!report.exchange_choice.empty()) std::printf("  %s\n", report.exchange_choice.c_str());
  }
  try {
    write_json(json_path, summary);
  } catch (const Error& e) {
    std::fprintf(stderr, "xpose: warning: the output is complete, but %s\n", e.what());
  }
  return 0;
}

int cmd_plan(const po::variables_map& vm) {
  TransposeOptions o = transpose_options(vm);
  if (o.in.path.empty()) {
    const std::string text = plan_whole_file(MPI_COMM_WORLD, o);
    if (is_root()) std::printf("%s", text.c_str());
    return 0;
  }
  Plan plan = plan_transpose(MPI_COMM_WORLD, o);
  if (is_root()) {
    std::printf("plan for %s -> %s\n%s", o.in.str().c_str(), o.out.str().c_str(), plan.describe().c_str());
    std::printf("per stage, per rank: read %d piece(s) of up to %lld x %lld, write %lld x %lld\n",
                plan.exchange_free ? 1 : plan.nranks,
                static_cast<long long>(plan.exchange_free ? plan.rows : plan.in_rows.block),
                static_cast<long long>(plan.width),
                static_cast<long long>(plan.width), static_cast<long long>(plan.rows));
  }
  return 0;
}

// info --kernels: the CUDA kernel the whole matrix (the last two axes, the leading ones a batch)
// would get and the kernel-table row that chose it, on --device's profile or this machine's GPU.
kernels::DeviceProfile kernel_profile(const po::variables_map& vm) {
  if (vm.count("device")) return kernels::DeviceProfile::named(vm["device"].as<std::string>());
  try {
    return kernels::current_device_profile();
  } catch (const Error&) {  // no GPU here, or a build without CUDA: the generic profile
    return kernels::DeviceProfile::generic();
  }
}

void print_kernels(std::size_t elem, const std::vector<std::int64_t>& shape,
                   const kernels::DeviceProfile& d) {
  const std::int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
  const std::int64_t cols = shape.empty() ? 1 : shape.back();
  std::int64_t batch = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i) batch *= shape[i];
  try {
    std::printf("\nkernels  out of place: %s\n",
                kernels::describe_out_of_place(elem, kernels::TransposeShape::dense(rows, cols, batch), d)
                    .c_str());
    if (rows == cols && rows > 1)
      std::printf("         in place: %s\n", kernels::describe_in_place(elem, rows, batch, d).c_str());
  } catch (const Error& e) {
    std::printf("\nkernels  none: %s\n", e.what());
  }
}

int cmd_info(const po::variables_map& vm) {
  // On every rank, so that a bad --device fails them all alike.
  const kernels::DeviceProfile device =
      vm.count("kernels") ? kernel_profile(vm) : kernels::DeviceProfile::generic();
  const auto ref = io::DatasetRef::parse(vm["file"].as<std::string>());
  io::InputFile file;
  mpi::collectively(MPI_COMM_WORLD, [&] { file = io::InputFile::open(ref, MPI_COMM_WORLD); });
  const auto& info = file.dataset().info();
  const std::vector<std::string> dims = io::dimension_names(file.dataset());
  std::string plan_text;
  std::string unsupported;
  std::size_t kernel_elem = info.element.size;
  Shape kernel_shape = info.shape;
  TransposeOptions o;
  o.host_mem = size_option(vm, "host-mem");
  o.gpu_mem = size_option(vm, "gpu-mem");
  if (vm.count("backend")) o.backend = vm["backend"].as<std::string>();
  if (vm.count("axes")) o.axes = split_axes(vm["axes"].as<std::string>());
  try {
    const Plan plan = plan_for(MPI_COMM_WORLD, file.dataset(), o);
    plan_text = plan.describe();
    kernel_elem = plan.elem_size;  // the engine's view: an axis order's matrices and elements
    kernel_shape = plan.engine;
  } catch (const Error& e) {
    unsupported = e.what();
  }
  if (is_root()) {
    std::printf("dataset   %s\n", ref.str().c_str());
    std::printf("shape     %s\n", format_shape(info.shape).c_str());
    if (!dims.empty()) {
      std::string text;
      for (const auto& d : dims) text += (text.empty() ? "" : ", ") + (d.empty() ? std::string("?") : d);
      std::printf("dims      %s (dimension scales: netCDF-4 dimensions)\n", text.c_str());
    }
    std::printf("type      %s, %zu bytes per element\n", info.type_description.c_str(), info.element.size);
    std::printf("layout    %s", io::layout_name(info.layout));
    if (!info.chunk.empty()) std::printf(", chunks %s", format_shape(info.chunk).c_str());
    std::printf("\n");
    std::string filters;
    for (const auto& f : info.filters) filters += (filters.empty() ? "" : ", ") + f;
    std::printf("filters   %s\n", filters.empty() ? "none" : filters.c_str());
    std::printf("storage   %s\n", format_size(static_cast<double>(info.storage_bytes)).c_str());
    if (unsupported.empty()) {
      std::printf("\nplan for %d rank(s):\n%s", mpi::size(MPI_COMM_WORLD), plan_text.c_str());
    } else {
      std::printf("\ncannot be transposed: %s\n", unsupported.c_str());
    }
    if (vm.count("kernels"))
      print_kernels(kernel_elem, std::vector<std::int64_t>(kernel_shape.begin(), kernel_shape.end()), device);
  }
  return 0;
}

int cmd_generate(const po::variables_map& vm) {
  GenerateOptions o;
  o.out = io::DatasetRef::parse(vm["out"].as<std::string>());
  if (!vm.count("shape")) throw UsageError("generate needs --shape, e.g. --shape 1024x2048");
  o.shape = parse_shape(vm["shape"].as<std::string>());
  o.type = ElementType::parse(vm["dtype"].as<std::string>());
  o.force = vm.count("force") > 0;
  if (vm.count("chunk")) o.chunk = parse_shape(vm["chunk"].as<std::string>());
  if (vm.count("host-mem")) o.host_mem = size_option(vm, "host-mem");
  o.seed = vm["seed"].as<std::uint64_t>();
  o.quiet = vm.count("quiet") > 0;
  generate(MPI_COMM_WORLD, o);
  return 0;
}

int cmd_verify(const po::variables_map& vm) {
  VerifyOptions o;
  o.in = io::DatasetRef::parse(vm["in"].as<std::string>());
  o.out = io::DatasetRef::parse(vm["out"].as<std::string>());
  o.sample = vm["sample"].as<std::int64_t>();
  if (vm.count("host-mem")) o.host_mem = size_option(vm, "host-mem");
  o.seed = vm["seed"].as<std::uint64_t>();
  o.quiet = vm.count("quiet") > 0;
  VerifyResult r = verify(MPI_COMM_WORLD, o);
  if (r.mismatches > 0)
    throw VerifyMismatchError(cat(r.mismatches, " of ", r.checked, " elements differ; first: ", r.first_mismatch));
  if (is_root() && !o.quiet)
    std::printf("verify: OK, %s is the transpose of %s (%lld elements checked%s)\n", o.out.str().c_str(),
                o.in.str().c_str(), static_cast<long long>(r.checked), o.sample > 0 ? ", random sample" : "");
  return 0;
}

std::map<std::string, Command> make_commands() {
  std::map<std::string, Command> cmds;
  {
    Command c{"transpose",
              "xpose transpose IN.h5:/path OUT.h5:/path [options]\n"
              "       xpose transpose IN.nc OUT.nc --axes lat,lon,time [options]   (every variable of a file)",
              po::options_description("Options"), {}};
    c.options.add_options()("in", po::value<std::string>()->required(), "input FILE:/dataset")(
        "out", po::value<std::string>()->required(), "output FILE:/dataset");
    add_transpose_options(c.options);
    c.options.add_options()("json", po::value<std::string>(), "write a JSON summary (phases, times, exit status) to FILE")(
        "trace", po::value<std::string>(), "write every rank's phase timeline to FILE (Chrome trace JSON; open in Perfetto)")(
        "progress-interval", po::value<double>(),
        "seconds between progress lines when stderr is not a terminal (a batch log; default 10)");
    add_common(c.options);
    c.positional.add("in", 1).add("out", 1);
    cmds.emplace(c.name, std::move(c));
  }
  {
    Command c{"plan", "xpose plan IN.h5:/path OUT.h5:/path [options]", po::options_description("Options"), {}};
    c.options.add_options()("in", po::value<std::string>()->required(), "input FILE:/dataset")(
        "out", po::value<std::string>()->required(), "output FILE:/dataset");
    add_transpose_options(c.options);
    c.options.add_options()("progress-interval", po::value<double>(), "ignored by plan")(
        "trace", po::value<std::string>(), "ignored by plan");
    add_common(c.options);
    c.positional.add("in", 1).add("out", 1);
    cmds.emplace(c.name, std::move(c));
  }
  {
    Command c{"info", "xpose info FILE.h5:/path [--host-mem SIZE] [--axes ORDER] [--kernels [--device NAME]]",
              po::options_description("Options"), {}};
    c.options.add_options()("file", po::value<std::string>()->required(), "FILE:/dataset")(
        "host-mem", po::value<std::string>(), "SIZE per rank to plan with (default as for transpose)")(
        "gpu-mem", po::value<std::string>(), "GPU SIZE per rank to plan with (default as for transpose)")(
        "backend", po::value<std::string>(), "backend to plan for: cuda, cpu or auto (the default)")(
        "axes", po::value<std::string>(), "the axis order to plan for (as for transpose)")(
        "kernels", "also the CUDA kernel the matrix gets and the kernel-table row that chose it")(
        "device", po::value<std::string>(), "with --kernels: a device profile (h100, h200, a100, v100, t4, k80)");
    add_common(c.options);
    c.positional.add("file", 1);
    cmds.emplace(c.name, std::move(c));
  }
  {
    Command c{"generate",
              "xpose generate OUT.h5:/path --shape S [--dtype T] [options]\n\n"
              "Writes a deterministic, non-trivial pattern (a hash of each element's index and the seed,\n"
              "mapped to finite values of the type). The shape is in HDF5 order: the last two extents\n"
              "are rows x columns and any leading ones are a batch (4x257x1031: 4 matrices of 257x1031).",
              po::options_description("Options"), {}};
    c.options.add_options()("out", po::value<std::string>()->required(), "output FILE:/dataset")(
        "shape", po::value<std::string>(), "extents, e.g. 16384x32768 or 4x257x1031")(
        "dtype", po::value<std::string>()->default_value("float32"),
        "float32, float64, complex64, complex128, int8, int16, int32, int64, uint8, uint16, uint32, uint64")(
        "chunk", po::value<std::string>(), "chunk the dataset, e.g. 256x256 (default: contiguous)")(
        "force,f", "replace the output file if it exists")("host-mem", po::value<std::string>(), "SIZE of buffer per rank (default 256MiB)")(
        "seed", po::value<std::uint64_t>()->default_value(0), "pattern seed");
    add_common(c.options);
    c.positional.add("out", 1);
    cmds.emplace(c.name, std::move(c));
  }
  {
    Command c{"verify",
              "xpose verify IN.h5:/path OUT.h5:/path [--sample N]\n\n"
              "Checks bitwise that OUT is IN with its last two axes swapped, on every element (or on N\n"
              "random ones), reading both files independently of the transpose engine.",
              po::options_description("Options"), {}};
    c.options.add_options()("in", po::value<std::string>()->required(), "input FILE:/dataset")(
        "out", po::value<std::string>()->required(), "transposed FILE:/dataset")(
        "sample", po::value<std::int64_t>()->default_value(0), "check N random elements instead of all")(
        "host-mem", po::value<std::string>(), "SIZE of buffer per rank (default 256MiB)")(
        "seed", po::value<std::uint64_t>()->default_value(1), "seed for --sample");
    add_common(c.options);
    c.positional.add("in", 1).add("out", 1);
    cmds.emplace(c.name, std::move(c));
  }
  return cmds;
}

int run_cli(int argc, char** argv) {
  auto cmds = make_commands();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() >= 2 && cmds.count(args[1])) {
      args = {args[1], "--help"};
    } else {
      if (is_root()) std::cout << kTopHelp << kExitCodes;
      return args.empty() ? static_cast<int>(ExitCode::Usage) : 0;
    }
  }
  if (args[0] == "--version" || args[0] == "version") {
    if (is_root()) std::cout << "xpose " << XPOSE_VERSION << "\n";
    return 0;
  }
  auto it = cmds.find(args[0]);
  if (it == cmds.end())
    throw UsageError(cat("unknown command '", args[0], "' (commands: transpose, info, plan, generate, verify; see xpose --help)"));
  Command& cmd = it->second;
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest)
    if (a == "--help" || a == "-h") {
      if (is_root()) std::cout << "Usage: " << cmd.synopsis << "\n\n" << cmd.options << "\n" << kExitCodes;
      return 0;
    }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(rest).options(cmd.options).positional(cmd.positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(cat(cmd.name, ": ", e.what(), " (see xpose ", cmd.name, " --help)"));
  }
  if (cmd.name == "transpose") return cmd_transpose(vm);
  if (cmd.name == "plan") return cmd_plan(vm);
  if (cmd.name == "info") return cmd_info(vm);
  if (cmd.name == "generate") return cmd_generate(vm);
  return cmd_verify(vm);
}

}  // namespace
}  // namespace xpose

int main(int argc, char** argv) {
  // A rank's I/O and kernel threads share its core with the thread that waits in MPI: Open MPI's
  // waits spin unless told to yield, and on a node with as many ranks as cores the spinning took
  // the I/O threads' time (a 2-rank run of 1 GiB on 2 cores ran 15 % longer). A setting of the
  // user's stays.
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
  int provided = 0;
  // MULTIPLE: HDF5 runs on its own thread while the main thread exchanges (separate
  // communicators). Without it, transpose runs its I/O in line.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int code = 0;
  try {
    code = xpose::run_cli(argc, argv);
  } catch (const xpose::Error& e) {
    // Errors here were agreed collectively (or come from argument parsing, which every rank
    // does alike), so rank 0 speaks for all.
    if (xpose::is_root()) std::fprintf(stderr, "xpose: error: %s\n", e.what());
    code = static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xpose: internal error: %s\n", e.what());
    code = static_cast<int>(xpose::ExitCode::Internal);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Finalize();
  return code;
}
