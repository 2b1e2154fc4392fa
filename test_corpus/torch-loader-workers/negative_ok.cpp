// torch-loader-workers: negatives. Workers set (constant or from a variable), options that
// cannot be followed, and a user function that only looks like make_data_loader.
#include <torch/torch.h>
#include <cstdlib>

using Stacked = torch::data::datasets::MapDataset<torch::data::datasets::MNIST,
                                                  torch::data::transforms::Stack<>>;

Stacked dataset() {
  return torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
}

namespace mylib {
// Same name, not libtorch's.
template <class D> int make_data_loader(D, size_t batch) { return static_cast<int>(batch); }
} // namespace mylib

// Options from the caller: unknown here.
void from_caller(const torch::data::DataLoaderOptions &opts) {
  auto l = torch::data::make_data_loader(dataset(), opts);
  (void)l;
}

int main(int argc, char **argv) {
  size_t workers = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2;
  auto a = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions(64).workers(4));
  auto b = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions(64).workers(workers));
  auto opts = torch::data::DataLoaderOptions(64);
  opts.workers(workers); // set after construction: not followed, so quiet
  auto c = torch::data::make_data_loader(dataset(), opts);
  auto d = mylib::make_data_loader(dataset(), 64);
  from_caller(torch::data::DataLoaderOptions(8).workers(2));
  (void)a; (void)b; (void)c; (void)d;
  return 0;
}
