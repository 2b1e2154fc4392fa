// torch-loader-workers in a file whose config header is not installed (issue 14): the options
// pass through a helper of the missing header, which may set workers. "Workers unset" is a claim
// about code torchlint cannot see: nothing is reported, in the whole file.
// TORCHLINT-MISSING-HEADERS: project/config.h
#include <torch/torch.h>
#include "project/config.h"

using Stacked = torch::data::datasets::MapDataset<torch::data::datasets::MNIST,
                                                  torch::data::transforms::Stack<>>;

int main() {
  auto dataset = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto opts = torch::data::DataLoaderOptions(64);
  project::apply_loader_config(opts); // may set workers
  auto loader = torch::data::make_data_loader(std::move(dataset), opts);
  // Even a loader whose options are all in sight: the file has code torchlint cannot type.
  auto other = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 32);
  for (auto &batch : *loader)
    (void)batch;
  for (auto &batch : *other)
    (void)batch;
}
