// torch-sync-host-copy, one file alone: a helper that copies an image to the host, called in a
// loop inside the logging branch `if (step % 1000 == 0)`, once per sample. The loop runs only on
// logging steps, so the copies are a remark that says so (before, the file alone stopped at the
// loop and said "called on every iteration" as a warning; the project model already gated it:
// tests/project_model/rare_loop_in_logging_branch).
#include <torch/torch.h>
#include <iostream>
#include <vector>

void save_image(const torch::Tensor &img) {
  torch::Tensor host = img.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:28: remark: .cpu() copies the tensor to host memory and blocks until the GPU has finished all queued work; keep the computation on the device, or copy once per logging interval (or with non_blocking=true into pinned memory, reading it a step later); a remark, not a warning: save_image() is called at loop_in_logging_branch.cpp:30, where it only runs in the logging branch `if (step % 1000 == 0)` at line 28 (in save_image(), called on every iteration of the loop in main() at line 29) [torch-sync-host-copy]
  std::cout << host.sizes() << "\n";
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(8, 8);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-4);
  for (long step = 1; step <= 100000; ++step) {
    torch::Tensor x = torch::randn({4, 8}, device);
    torch::Tensor out = net->forward(x);
    torch::Tensor loss = out.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 1000 == 0) {
      for (int i = 0; i < 4; ++i)
        save_image(out[i]);
    }
  }
}
