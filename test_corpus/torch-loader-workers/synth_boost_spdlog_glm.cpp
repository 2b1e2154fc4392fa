// torch-loader-workers (and torch-sync-item) in a program whose command-line, logging and maths
// libraries are not installed and have no stand-in (issue 24): Boost.program_options, spdlog and
// glm. torchlint declares what the file uses from them (core/Synthesis.h), so the loader built
// from `vm["data"].as<std::string>()` is typed, and so is the loop over it: both anti-patterns are
// found. Values of the unknown libraries are never judged (`.item()` on them is not a tensor's).
// TORCHLINT-CHECKS: -*,torch-loader-workers,torch-sync-item
// TORCHLINT-MISSING-HEADERS: boost/program_options.hpp spdlog/spdlog.h glm/glm.hpp
#include <torch/torch.h>
#include <boost/program_options.hpp>
#include <spdlog/spdlog.h>
#include <glm/glm.hpp>
#include <iostream>
#include <string>

namespace po = boost::program_options;

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(784, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.view({x.size(0), 784})); }
  torch::nn::Linear fc{nullptr};
};

int main(int argc, char **argv) {
  po::options_description desc("Options");
  desc.add_options()("help", "usage")("data", po::value<std::string>()->default_value("./data"), "MNIST folder")(
      "epochs", po::value<int>()->default_value(10), "epochs")("lr", po::value<double>(), "learning rate");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc << std::endl;
    return 0;
  }
  spdlog::set_level(spdlog::level::info);
  glm::vec3 tint(0.5f, 0.5f, 0.5f);
  torch::Device device(torch::kCUDA);
  auto loader = torch::data::make_data_loader(
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: torch::data::make_data_loader() with workers unset or 0 [torch-loader-workers]
      torch::data::datasets::MNIST(vm["data"].as<std::string>()).map(torch::data::transforms::Stack<>()), 64);
  auto model = std::make_shared<Net>();
  model->to(device);
  double lr = vm["lr"].as<double>();
  torch::optim::SGD optimizer(model->parameters(), lr);
  for (int epoch = 0; epoch < vm["epochs"].as<int>(); ++epoch) {
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto output = model->forward(batch.data.to(device));
      auto loss = torch::nll_loss(torch::log_softmax(output, 1), batch.target.to(device));
      loss.backward();
      optimizer.step();
      spdlog::info("epoch {} loss {}", epoch, loss.item<float>());
      // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: Tensor::item() copies the value to the host [torch-sync-item]
      // Not reported: values of the unknown libraries are not tensors torchlint can judge.
      float scale = vm["scale"].as<torch::Tensor>().item<float>() * glm::length(tint);
      auto stats = spdlog::get("stats");
      stats->info("{}", stats->last().item<float>());
      (void)scale;
    }
  }
}
