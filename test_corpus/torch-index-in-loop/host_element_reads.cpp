// torch-index-in-loop: a loop whose indexing only reads elements to the host (`t[i].item()`,
// `t.select(0, i).item<T>()`) is torch-sync-item's finding: sync-item reports it once per element
// read, and its fix (one host copy of the whole tensor, then an accessor) removes the per-element
// indexing too. A loop that also indexes otherwise is still reported here.
#include <torch/torch.h>

#include <vector>

std::vector<int64_t> kept_indices(const torch::Tensor &keep) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < keep.size(0); ++i)
    if (keep.select(0, i).item<bool>())
      out.push_back(i);
  return out;
}

std::vector<int64_t> gather_ids(const torch::Tensor &idx) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < idx.size(0); ++i)
    ids.push_back(idx[i].item<int64_t>());
  return ids;
}

torch::Tensor clipped(const torch::Tensor &scores) {
  auto out = torch::zeros_like(scores);
  for (int64_t i = 0; i < scores.size(0); ++i) {
    float s = scores[i].item<float>();
    out[i] = s > 0 ? s : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: `out[i]` indexes one row or element of out per iteration of the loop at line 26 over scores.size(0) [torch-index-in-loop]
  }
  return out;
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(16, 16);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({64, 16}, device);
    auto y = model->forward(x);
    auto keep = y.select(1, 0) > 0;
    auto picked = kept_indices(keep);
    auto ids = gather_ids(y.argmax(1));
    auto loss = clipped(y.select(1, 1)).sum() + y.mean() * static_cast<double>(picked.size() + ids.size());
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
