// torch-sync-item in a file whose logging and option-parsing headers are not installed (issue 14):
// the file is analysed partially. A sync on a typed tensor is reported, also as the argument of a
// call on an unknown type; a sync on a value whose type is unknown because of the missing
// headers is not (no finding rests on code with errors, nor on synthesised declarations, issue 24).
// (Neither has a stand-in header; see partial_stand_in_headers.cpp for those that do.)
// TORCHLINT-MISSING-HEADERS: spdlog/spdlog.h clopts/clopts.hpp
#include <torch/torch.h>
#include "spdlog/spdlog.h"
#include <clopts/clopts.hpp>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main(int argc, char **argv) {
  clopts::Options options("train", "a model");
  auto args = options.parse(argc, argv);
  int epochs = args["epochs"].as<int>(); // an int: the loop below is still a loop
  auto logger = spdlog::get("train");
  auto model = std::make_shared<Net>();
  model->to(torch::kCUDA);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    auto x = torch::randn({16, 8}, torch::kCUDA);
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    float value = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: Tensor::item() copies the value to the host [torch-sync-item]
    logger->info("loss {}", loss.item<float>()); // a call on an unknown type; its argument is typed
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: Tensor::item() copies the value to the host [torch-sync-item]
    // Not reported: the tensor's type is unknown (args and logger come from the missing headers).
    auto scale = args["scale"].as<torch::Tensor>().item<float>();
    logger->info("{}", logger->last_tensor().item<float>());
    auto *metrics = spdlog::metrics(loss);
    float m = metrics->value().item<float>();
    // Typed through synthesised declarations (issue 24): its typed argument is judged.
    spdlog::info("loss {}", loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: Tensor::item() copies the value to the host [torch-sync-item]
    (void)value;
    (void)scale;
    (void)m;
  }
}
