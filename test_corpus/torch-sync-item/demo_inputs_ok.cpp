// After training, a demo translates a few fixed sentences: a local list written as a braced list
// of four literals, only read (its size(), its elements), iterated by index and by range-for.
// Each sentence's decode reads its tokens to the host, which is the output itself; the loop runs
// four times once per run, as a braced list would. Not a step loop, so nothing is reported.
#include <torch/torch.h>
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

torch::Tensor encode(const std::string &s, torch::Device device) {
  return torch::full({1, static_cast<long>(s.size())}, 3, torch::kLong).to(device);
}

std::string translate(Translator &net, const std::string &sentence, torch::Device device) {
  auto logits = net->forward(encode(sentence, device));
  int64_t first = logits.argmax(2)[0][0].item<int64_t>();
  return std::to_string(first);
}

void demo(Translator &net, torch::Device device) {
  std::vector<std::string> sentences = {"go .", "i lost .", "he's calm .", "i'm home ."};
  for (size_t i = 0; i < sentences.size(); ++i)
    std::cout << sentences[i] << " => " << translate(net, sentences[i], device) << "\n";
  const std::vector<std::string> more{"thanks .", "see you ."};
  for (const auto &s : more)
    std::cout << s << " => " << translate(net, s, device) << "\n";
}

int main() {
  torch::Device device(torch::kCUDA);
  Translator net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) {
    auto ids = torch::randint(100, {8, 12}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = net->forward(ids).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  demo(net, device);
}
