// torch-sync-host-copy: look-alikes of inference_readback_ok.cpp that stay reported. A copy to the
// host in the training step (no guard: the function trains), and one per element in a loop of an
// inference function (one copy of the whole tensor would do).
#include <torch/torch.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

std::vector<float> infer_rows(std::shared_ptr<Net> net, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  torch::Tensor out = net->forward(x);
  std::vector<float> rows;
  for (int64_t b = 0; b < out.size(0); ++b) {
    torch::Tensor row = out[b].to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: .to(<CPU device>) copies the tensor to host memory [torch-sync-host-copy]
    rows.push_back(row.accessor<float, 1>()[0]);
  }
  return rows;
}

int main() {
  torch::Device device(torch::kCUDA);
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  float seen = 0;
  for (int step = 0; step < 1000; ++step) {
    torch::Tensor x = torch::rand({64, 16}, device);
    torch::Tensor out = net->forward(x);
    torch::Tensor loss = out.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    torch::Tensor host = out.detach().to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: .to(<CPU device>) copies the tensor to host memory [torch-sync-host-copy]
    seen += host.accessor<float, 2>()[0][0];
    seen += infer_rows(net, x)[0];
  }
  return seen > 0;
}
