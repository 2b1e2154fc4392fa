// torch-loader-workers: data loaders whose workers are unset or 0.
#include <torch/torch.h>

using Stacked = torch::data::datasets::MapDataset<torch::data::datasets::MNIST,
                                                  torch::data::transforms::Stack<>>;

Stacked dataset() {
  return torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
}

// A helper that builds the options: followed, its workers are unset.
torch::data::DataLoaderOptions loader_options(size_t batch) {
  return torch::data::DataLoaderOptions().batch_size(batch).drop_last(true);
}

int main() {
  // Options defaulted.
  auto a = torch::data::make_data_loader(dataset());
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto a = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions().workers(4));
  // Only a batch size.
  auto b = torch::data::make_data_loader(dataset(), 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto b = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions(64).workers(4));
  // Inline options without workers.
  auto c = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions(64).drop_last(true));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto c = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions(64).drop_last(true).workers(4));
  // Workers explicitly 0.
  auto d = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions().batch_size(32).workers(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto d = torch::data::make_data_loader(dataset(), torch::data::DataLoaderOptions().batch_size(32).workers(4));
  // Options kept in a variable.
  auto opts = torch::data::DataLoaderOptions(128);
  // CHECK-FIXES: auto opts = torch::data::DataLoaderOptions(128).workers(4);
  auto e = torch::data::make_data_loader(dataset(), opts);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // Options from a helper.
  auto f = torch::data::make_data_loader(dataset(), loader_options(16));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto f = torch::data::make_data_loader(dataset(), loader_options(16).workers(4));
  // The sequential sampler overload.
  auto g = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(dataset(), 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: torch::data::make_data_loader() with workers unset or 0 loads and coll [torch-loader-workers]
  // CHECK-FIXES: auto g = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(dataset(), torch::data::DataLoaderOptions(8).workers(4));
  (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; (void)g;
  return 0;
}
