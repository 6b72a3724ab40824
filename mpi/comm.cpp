#include "mpi/comm.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace xpose::mpi {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {0};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) std::snprintf(text, sizeof text, "code %d", code);
  throw RuntimeFailure(cat("MPI error in ", call, " at ", file, ":", line, ": ", text));
}

void CommTraits::close(MPI_Comm comm) noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF) MPI_Comm_free(&comm);
}

void DatatypeTraits::close(MPI_Datatype type) noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&type);
}

int rank(MPI_Comm comm) {
  int r = 0;
  XPOSE_CHECK_MPI(MPI_Comm_rank(comm, &r));
  return r;
}

int size(MPI_Comm comm) {
  int s = 0;
  XPOSE_CHECK_MPI(MPI_Comm_size(comm, &s));
  return s;
}

LocalRank local_rank(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank(comm), MPI_INFO_NULL, &node));
  OwnedComm owned(node);
  return {rank(node), size(node)};
}

int ranks_per_node_from_environment() {
  const char* text = std::getenv("XPOSE_RANKS_PER_NODE");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > std::numeric_limits<int>::max())
    throw UsageError(cat("XPOSE_RANKS_PER_NODE='", text, "' is not a positive whole number"));
  return static_cast<int>(value);
}

NodeLayout node_layout(MPI_Comm comm, int ranks_per_node) {
  const int me = rank(comm), n = size(comm);
  if (ranks_per_node <= 0) ranks_per_node = ranks_per_node_from_environment();
  // Every rank must cut the same way, or nodes would disagree about their members.
  const std::int64_t lo = -allreduce_max(comm, std::int64_t{-ranks_per_node});
  if (lo != allreduce_max(comm, std::int64_t{ranks_per_node}))
    throw UsageError("XPOSE_RANKS_PER_NODE differs between ranks");
  MPI_Comm shared = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &shared));
  OwnedComm shared_owned(shared);
  NodeLayout layout;
  if (ranks_per_node > 0) {
    // Blocks of consecutive ranks inside the shared-memory node: still one shared memory each.
    MPI_Comm cut = MPI_COMM_NULL;
    XPOSE_CHECK_MPI(MPI_Comm_split(shared, me / ranks_per_node, me, &cut));
    layout.node = OwnedComm(cut);
  } else {
    layout.node = std::move(shared_owned);
  }
  layout.local_rank = rank(layout.node.get());
  // The node's lowest rank names it (split key = rank, so it is local rank 0).
  int leader = layout.local_rank == 0 ? me : 0;
  XPOSE_CHECK_MPI(MPI_Bcast(&leader, 1, MPI_INT, 0, layout.node.get()));
  std::vector<int> leaders(static_cast<std::size_t>(n));
  XPOSE_CHECK_MPI(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm));
  std::vector<int> sorted = leaders;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  layout.members.resize(sorted.size());
  layout.node_of.resize(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const int node = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), leaders[r]) - sorted.begin());
    layout.node_of[r] = node;
    layout.members[node].push_back(r);
  }
  layout.node_index = layout.node_of[me];
  for (const auto& m : layout.members)
    layout.max_ranks_per_node = std::max(layout.max_ranks_per_node, static_cast<int>(m.size()));
  return layout;
}

OwnedDatatype element_datatype(std::size_t elem_size) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  XPOSE_CHECK_MPI(MPI_Type_contiguous(static_cast<int>(elem_size), MPI_BYTE, &type));
  OwnedDatatype owned(type);
  XPOSE_CHECK_MPI(MPI_Type_commit(&type));
  return owned;
}

void collectively(MPI_Comm comm, const std::function<void()>& work) {
  int code = 0;
  std::string message;
  try {
    work();
  } catch (const Error& e) {
    code = static_cast<int>(e.code());
    message = e.what();
  } catch (const std::bad_alloc&) {
    code = static_cast<int>(ExitCode::Resources);
    message = "out of memory";
  } catch (const std::exception& e) {
    code = static_cast<int>(ExitCode::Internal);
    message = e.what();
  }
  // The lowest failing rank speaks for all: (failed, -rank) maximised picks it.
  struct {
    int failed;
    int neg_rank;
  } mine{code != 0 ? 1 : 0, -rank(comm)}, first{0, 0};
  XPOSE_CHECK_MPI(MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MAXLOC, comm));
  if (!first.failed) return;
  int root = -first.neg_rank;
  int header[2] = {code, static_cast<int>(message.size())};
  XPOSE_CHECK_MPI(MPI_Bcast(header, 2, MPI_INT, root, comm));
  message.resize(static_cast<std::size_t>(header[1]));
  XPOSE_CHECK_MPI(MPI_Bcast(message.data(), header[1], MPI_CHAR, root, comm));
  throw Error(static_cast<ExitCode>(header[0]), message);
}

namespace {
constexpr std::int64_t kMessageChunk = 1ll << 30;
}  // namespace

void post_receive(std::vector<MPI_Request>& requests, void* data, std::int64_t bytes, int peer, int tag, MPI_Comm comm) {
  for (std::int64_t done = 0; done < bytes; done += kMessageChunk) {
    requests.push_back(MPI_REQUEST_NULL);
    XPOSE_CHECK_MPI(MPI_Irecv(static_cast<std::byte*>(data) + done, static_cast<int>(std::min(kMessageChunk, bytes - done)),
                              MPI_BYTE, peer, tag, comm, &requests.back()));
  }
}

void post_send(std::vector<MPI_Request>& requests, const void* data, std::int64_t bytes, int peer, int tag,
               MPI_Comm comm) {
  for (std::int64_t done = 0; done < bytes; done += kMessageChunk) {
    requests.push_back(MPI_REQUEST_NULL);
    XPOSE_CHECK_MPI(MPI_Isend(static_cast<const std::byte*>(data) + done,
                              static_cast<int>(std::min(kMessageChunk, bytes - done)), MPI_BYTE, peer, tag, comm,
                              &requests.back()));
  }
}

int to_int_count(std::int64_t count, const char* what) {
  if (count < 0 || count > std::numeric_limits<int>::max())
    throw InternalError(cat("MPI count for ", what, " out of int range: ", count,
                            " (the planner should have split this exchange)"));
  return static_cast<int>(count);
}

std::int64_t allreduce_max(MPI_Comm comm, std::int64_t value) {
  std::int64_t out = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_MAX, comm));
  return out;
}

std::int64_t allreduce_sum(MPI_Comm comm, std::int64_t value) {
  std::int64_t out = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_SUM, comm));
  return out;
}

double allreduce_max(MPI_Comm comm, double value) {
  double out = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, comm));
  return out;
}

}  // namespace xpose::mpi
