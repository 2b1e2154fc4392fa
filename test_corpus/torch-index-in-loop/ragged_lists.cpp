// torch-index-in-loop: a padded batch filled from a list of tensors of different shapes (images
// of their own sizes) copies one tensor per iteration; no expression over one dimension replaces
// it. The same loop over same-shaped rows of one tensor is still reported.
#include <torch/torch.h>
#include <vector>

torch::Tensor pad_batch(const std::vector<torch::Tensor> &images, int64_t h, int64_t w) {
  auto batch = torch::zeros({static_cast<int64_t>(images.size()), 3, h, w}, images[0].options());
  for (size_t i = 0; i < images.size(); ++i)
    batch[i].narrow(1, 0, images[i].size(1)).narrow(2, 0, images[i].size(2)).copy_(images[i]);
  return batch;
}

torch::Tensor pad_batch_at(const std::vector<torch::Tensor> &images, int64_t h, int64_t w) {
  auto batch = torch::zeros({static_cast<int64_t>(images.size()), 3, h, w}, images[0].options());
  for (size_t i = 0; i < images.size(); ++i)
    batch[i].narrow(1, 0, images.at(i).sizes()[1]).narrow(2, 0, images.at(i).sizes()[2]).copy_(images.at(i));
  return batch;
}

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.mean(); }
};

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  torch::optim::SGD opt(net.parameters(), 0.1);
  std::vector<torch::Tensor> images;
  for (int k = 0; k < 4; ++k)
    images.push_back(torch::rand({3, 30 + k, 40 - k}, device));
  for (int step = 0; step < 100; ++step) {
    auto batch = pad_batch(images, 64, 64) + pad_batch_at(images, 64, 64);
    // Look-alike: rows of one tensor, the same size each: one expression does it.
    auto rows = torch::rand({64, 16}, device);
    for (int64_t r = 0; r < rows.size(0); ++r)
      rows[r].div_(rows[r].norm());
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `rows[r]` indexes one row or element of rows per iteration [torch-index-in-loop]
    auto loss = net.forward(batch + rows.sum());
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
