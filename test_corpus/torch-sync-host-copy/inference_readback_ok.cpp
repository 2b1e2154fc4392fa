// torch-sync-host-copy: an inference function's one readback of its results is what the function
// is for. A model server answers host callers (a tree search evaluating positions): the batch is
// evaluated under torch::NoGradGuard, each output is copied to the host once, outside any loop,
// and read there element by element through an accessor, as torch-sync-item advises for
// per-element reads. Nothing can keep it on the device: quiet, even though the server's loop runs
// it for every request batch. (The same copy in a training step, or per element in a loop, is
// reported: inference_readback.cpp.)
#include <torch/torch.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

struct Outputs {
  std::vector<float> value;
};

class Server {
 public:
  explicit Server(torch::Device device) : device_(device) { net_->to(device_); }
  Outputs infer(const std::vector<float> &obs, int64_t batch) {
    torch::Tensor x = torch::from_blob(const_cast<float *>(obs.data()), {batch, 16}).clone().to(device_);
    net_->eval();
    torch::NoGradGuard no_grad;
    torch::Tensor out = net_->forward(x);
    torch::Tensor host = out.to(torch::kCPU).contiguous();
    auto acc = host.accessor<float, 2>();
    Outputs o;
    for (int64_t b = 0; b < batch; ++b)
      o.value.push_back(acc[b][0]);
    return o;
  }

 private:
  torch::Device device_;
  std::shared_ptr<Net> net_ = std::make_shared<Net>();
};

int main() {
  Server server(torch::kCUDA);
  std::vector<float> obs(64 * 16);
  float total = 0;
  for (int request = 0; request < 10000; ++request)
    total += server.infer(obs, 64).value[0];
  return total > 0;
}
