// torch-sync-host-copy: a loop that only loads (reads files into host tensors, once, before
// training) is not a step loop, even when the tensors come from a function of another file whose device
// torchlint cannot see. Seen in a NeRF data set constructor: images.push_back(readImage(p).to(kCPU)).
// The copy inside the training loop stays a finding. Decided from this file alone (model/LocalModel.h:
// the loop runs no step, in a constructor that main() calls once, outside its loops).
#include <torch/torch.h>
#include <string>
#include <vector>

torch::Tensor readImage(const std::string &path); // defined in image_io.cpp

struct Scene {
  std::vector<torch::Tensor> images;
  explicit Scene(const std::vector<std::string> &paths) {
    for (const auto &p : paths)
      images.push_back(readImage(p).to(torch::kCPU)); // loading, once: no finding
  }
};

int main(int argc, char **argv) {
  torch::Device device(torch::kCUDA);
  Scene scene(std::vector<std::string>(argv + 1, argv + argc));
  auto net = torch::nn::Linear(3, 3);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  std::vector<float> curve;
  for (int step = 0; step < 30000; ++step) {
    auto img = scene.images[step % scene.images.size()].to(device);
    auto loss = (net->forward(img.view({-1, 3})) - img.view({-1, 3})).abs().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    curve.push_back(loss.detach().to(torch::kCPU).item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: (in the loop at line 27 of main()) [torch-sync-host-copy]
  }
}
