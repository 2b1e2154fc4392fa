// torchlint stand-in for libtorch's MPI process group under its pre-1.8 include path
// (<c10d/ProcessGroupMPI.hpp>; today torch/csrc/distributed/c10d/ProcessGroupMPI.hpp, which needs
// mpi.h and a libtorch built with USE_C10D_MPI). It declares the class on libtorch's own
// ProcessGroup, so the collectives a training loop calls are libtorch's. See ../README.md.
#pragma once
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <vector>

namespace c10d {

class ProcessGroupMPI : public ProcessGroup {
public:
  static c10::intrusive_ptr<ProcessGroupMPI> createProcessGroupMPI(std::vector<int> ranks = {});
  void abort();
};

} // namespace c10d
