// Look-alikes of demo_inputs_ok.cpp that are not a few fixed inputs: the list starts as a braced
// list but the function appends every line of a file to it, hands it to a helper that may fill it,
// or overwrites an element. Each loop translates on every iteration (a forward()), so its
// per-sentence item() reads are reported.
#include <torch/torch.h>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct TranslatorImpl : torch::nn::Module {
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear head{nullptr};
  TranslatorImpl() {
    embed = register_module("embed", torch::nn::Embedding(100, 16));
    head = register_module("head", torch::nn::Linear(16, 100));
  }
  torch::Tensor forward(const torch::Tensor &ids) { return head(embed(ids)); }
};
TORCH_MODULE(Translator);

void load_more(std::vector<std::string> &into);

torch::Tensor encode(const std::string &s, torch::Device device) {
  return torch::full({1, static_cast<long>(s.size())}, 3, torch::kLong).to(device);
}

void from_file(Translator &net, torch::Device device) {
  std::vector<std::string> sentences = {"go ."};
  std::ifstream in("sentences.txt");
  for (std::string line; std::getline(in, line);)
    sentences.push_back(line);
  for (size_t i = 0; i < sentences.size(); ++i)
    std::cout << net->forward(encode(sentences[i], device)).argmax().item<int64_t>() << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: Tensor::item() copies the value to the host [torch-sync-item]
}

void filled_elsewhere(Translator &net, torch::Device device) {
  std::vector<std::string> sentences{"go .", "hi ."};
  load_more(sentences);
  for (const auto &s : sentences)
    std::cout << net->forward(encode(s, device)).argmax().item<int64_t>() << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: Tensor::item() copies the value to the host [torch-sync-item]
}

void overwritten(Translator &net, torch::Device device, const std::string &user) {
  std::vector<std::string> sentences{"go .", "hi ."};
  sentences[0] = user;
  for (size_t i = 0; i < sentences.size(); ++i)
    std::cout << net->forward(encode(sentences[i], device)).argmax().item<int64_t>() << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: Tensor::item() copies the value to the host [torch-sync-item]
}

int main() {
  torch::Device device(torch::kCUDA);
  Translator net;
  net->to(device);
  from_file(net, device);
  filled_elsewhere(net, device);
  overwritten(net, device, "thanks .");
}
