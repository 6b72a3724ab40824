/// @file
/// Communicator helpers: rank/size, node-local rank, collective agreement on errors, and an
/// MPI datatype per element size.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "mpi/check.h"
#include "xpose/unique_handle.h"

namespace xpose::mpi {

struct CommTraits {
  static MPI_Comm invalid() noexcept { return MPI_COMM_NULL; }
  static void close(MPI_Comm comm) noexcept;
};
/// An owned communicator (never MPI_COMM_WORLD itself).
using OwnedComm = UniqueHandle<MPI_Comm, CommTraits>;

struct DatatypeTraits {
  static MPI_Datatype invalid() noexcept { return MPI_DATATYPE_NULL; }
  static void close(MPI_Datatype type) noexcept;
};
using OwnedDatatype = UniqueHandle<MPI_Datatype, DatatypeTraits>;

int rank(MPI_Comm comm);
int size(MPI_Comm comm);

/// The rank within the node (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) and the node's rank
/// count.
struct LocalRank {
  int rank = 0;
  int size = 1;
};
LocalRank local_rank(MPI_Comm comm);

/// How the ranks of a communicator group into nodes. A node is a set of ranks that share memory
/// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)); with a ranks-per-node count n, each of those is
/// cut further into blocks of n consecutive ranks, so one machine can stand in for several
/// nodes (tests) while every "node" still shares memory.
struct NodeLayout {
  OwnedComm node;                         ///< this rank's node, ranked in `comm` order
  int node_index = 0;                     ///< nodes are numbered by their lowest rank
  int local_rank = 0;                     ///< rank within the node
  std::vector<std::vector<int>> members;  ///< ranks of each node, ascending (= local order)
  std::vector<int> node_of;               ///< node of every rank
  int max_ranks_per_node = 1;

  int nodes() const { return static_cast<int>(members.size()); }
};

/// Collective over `comm`. `ranks_per_node` > 0 fakes node boundaries as above; 0 takes it from
/// the XPOSE_RANKS_PER_NODE environment variable, and where that is unset, the real nodes.
NodeLayout node_layout(MPI_Comm comm, int ranks_per_node = 0);

/// XPOSE_RANKS_PER_NODE as a positive count, 0 when unset; UsageError when malformed. The same on
/// every rank is the caller's promise (node_layout checks it).
int ranks_per_node_from_environment();

/// A committed contiguous datatype of `elem_size` bytes: exchange counts are in elements.
OwnedDatatype element_datatype(std::size_t elem_size);

/// Runs `work` on every rank, then agrees: if it threw on any rank, every rank throws the same
/// xpose::Error (the one from the lowest failing rank, with its exit code and message). So a
/// check that fails on one rank cannot leave the others waiting in the next collective.
void collectively(MPI_Comm comm, const std::function<void()>& work);

/// Posts a nonblocking receive of `bytes` at `data` from `peer` (a send to `peer`), as MPI_BYTE
/// messages of at most 1 GiB with one tag (so they match in order), appending the requests.
/// Bytes rather than an element datatype: a node pair's message can pass an int count of
/// elements, and SimGrid's SMPI packs derived-datatype messages (a real copy per message).
void post_receive(std::vector<MPI_Request>& requests, void* data, std::int64_t bytes, int peer, int tag, MPI_Comm comm);
void post_send(std::vector<MPI_Request>& requests, const void* data, std::int64_t bytes, int peer, int tag,
               MPI_Comm comm);

/// Checks an int count before it is handed to MPI.
int to_int_count(std::int64_t count, const char* what);

/// MPI_Allreduce helpers.
std::int64_t allreduce_max(MPI_Comm comm, std::int64_t value);
std::int64_t allreduce_sum(MPI_Comm comm, std::int64_t value);
double allreduce_max(MPI_Comm comm, double value);

}  // namespace xpose::mpi
