// torch-loader-workers in a file whose config header is not installed (issue 14): the options
// pass through a helper of the missing header, which may set workers. "Workers unset" is a claim
// about code torchlint cannot see: nothing is reported for this loader. (A loader whose options
// are all in sight is still judged: error_elsewhere.cpp, synth_boost_spdlog_glm.cpp; issue 24.)
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
  for (auto &batch : *loader)
    (void)batch;
}
