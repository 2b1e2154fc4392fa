// torch-sync-host-copy: look-alike of load_loop_not_a_step_loop.cpp. The loading helper's loop
// copies to the host, and the helper runs once before training, but the training loop calls it
// again on every step: its loop is not once-only code, and the copy in it is reported.
#include <torch/torch.h>
#include <string>
#include <vector>

torch::Tensor readImage(const std::string &path); // defined in image_io.cpp

std::vector<torch::Tensor> loadViews(const std::vector<std::string> &paths) {
  std::vector<torch::Tensor> views;
  for (const auto &p : paths)
    views.push_back(readImage(p).to(torch::kCPU));
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: .to(<CPU device>) copies the tensor to host memory [torch-sync-host-copy]
  return views;
}

int main(int argc, char **argv) {
  torch::Device device(torch::kCUDA);
  std::vector<std::string> paths(argv + 1, argv + argc);
  auto first = loadViews(paths);
  auto net = torch::nn::Linear(3, 3);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 30000; ++step) {
    auto views = loadViews(paths); // re-read every step
    auto img = views[step % views.size()].to(device);
    auto loss = (net->forward(img.view({-1, 3})) - img.view({-1, 3})).abs().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
