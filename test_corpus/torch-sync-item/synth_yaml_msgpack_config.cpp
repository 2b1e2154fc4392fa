// torch-sync-item in a trainer whose configuration and message libraries are not installed and have
// no stand-in (issue 24): yaml-cpp and msgpack. What torchlint must synthesise for the training
// loop to be typed (core/Synthesis.h):
//  - `root = "runs/" + config["name"].as<std::string>() + "/"`: the operators of __typed<T> give T's
//    (a permissive value there made the assignment to a std::string ambiguous);
//  - `auto scale = ...as<std::vector<float>>(); ... * scale[0]`: __typed<T>'s subscript is T's;
//  - `std::ofstream log(...)` with <fstream> never included here (yaml-cpp's headers included it):
//    the standard header the name belongs to;
//  - `MSGPACK_DEFINE_MAP(step, loss)` in a struct: a declaration macro, expanding to nothing;
//  - `using Queue = mq::Queue<Record, 8>;`: an alias declaration names a type.
// The item() written to the log on every step is found; nothing rests on the synthesised values.
// TORCHLINT-CHECKS: -*,torch-sync-item
// TORCHLINT-MISSING-HEADERS: yaml-cpp/yaml.h msgpack.hpp
#include <torch/torch.h>
#include <yaml-cpp/yaml.h>
#include <msgpack.hpp>
#include <string>
#include <vector>

struct Record {
  int step = 0;
  float loss = 0;
  MSGPACK_DEFINE_MAP(step, loss)
};
using Queue = mq::Queue<Record, 8>;

int main() {
  YAML::Node config = YAML::LoadFile("train.yaml");
  std::string root;
  root = "runs/" + config["name"].as<std::string>() + "/";
  auto scale = config["scale"].as<std::vector<float>>();
  std::ofstream log(root + "loss.txt");
  Queue queue;
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(4, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), config["lr"].as<double>());
  for (int step = 0; step < config["steps"].as<int>(); ++step) {
    auto x = torch::randn({64, 4}, device) * scale[0];
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    log << step << " " << loss.item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }
  return 0;
}
