// torch-loader-workers: the Workers option sets N in the fix.
// TORCHLINT-OPTIONS: torch-loader-workers.Workers=8
#include <torch/torch.h>

int main() {
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64).workers(8));
  (void)loader;
  return 0;
}
