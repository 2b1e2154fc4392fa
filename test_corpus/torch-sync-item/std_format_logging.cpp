// torch-sync-item: a C++20/23 training program that logs with std::format and std::println. On a
// standard library without <format> / <print> (libstdc++ 12, Debian 12's) torchlint's stand-ins
// for them type the logging code, so the read of the loss inside the format arguments, on every
// step, is judged and reported; the user-defined formatter is typed too.
// TORCHLINT-VERSIONS: 2
// TORCHLINT-MISSING-HEADERS: format? print?
#include <torch/torch.h>
#include <format>
#include <print>
#include <string>

struct Shape2 {
  int64_t rows, cols;
};
template <> struct std::formatter<Shape2> : std::formatter<std::string> {
  auto format(const Shape2 &s, std::format_context &ctx) const {
    return std::format_to(ctx.out(), "{}x{}", s.rows, s.cols);
  }
};

void log_line(const std::string &line) { std::println("{}", line); }

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({4, 8}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    log_line(std::format("step {} loss {:.4f} batch {}", step, loss.item<float>(), Shape2{x.size(0), x.size(1)}));
    // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work [torch-sync-item]
  }
}
