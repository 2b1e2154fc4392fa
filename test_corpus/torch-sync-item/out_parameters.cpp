// torch-sync-item: a CPU tensor passed by non-const reference may come back on the device: the
// callee assigns it a CUDA tensor, its body is not in this file, libtorch reads into it
// (torch::load), or a reference to it is assigned. Its device is then not the CPU any more.
#include <torch/torch.h>

static void to_device(torch::Tensor &out) { out = out.to(torch::kCUDA); }
void fill_elsewhere(torch::Tensor &out); // defined in another file

int main() {
  torch::Tensor gpu = torch::randn({4}, torch::kCUDA);
  float total = 0;
  for (int step = 0; step < 10; ++step) {
    torch::Tensor a = torch::zeros({4});
    to_device(a);
    total += a.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Tensor::item() copies the value to the host [torch-sync-item]
    torch::Tensor b = torch::zeros({4});
    fill_elsewhere(b);
    total += b.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Tensor::item() copies the value to the host [torch-sync-item]
    torch::Tensor c = torch::zeros({4});
    torch::load(c, "weights.pt");
    total += c.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Tensor::item() copies the value to the host [torch-sync-item]
    torch::Tensor d = torch::zeros({4});
    torch::Tensor &alias = d;
    alias = gpu * 2;
    total += d.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }
  (void)total;
}
