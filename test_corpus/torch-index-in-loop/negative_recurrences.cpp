// Clean: loops over a tensor's rows that cannot be vectorised as written or that call a model:
// a recurrent cell carrying its state, a prefix recurrence indexing i - 1, a gather through an
// index list, per-sample calls of a module and of a user function.
#include <torch/torch.h>
#include <vector>

torch::Tensor augment(const torch::Tensor &sample) { return sample.flip({0}); }

struct NetImpl : torch::nn::Module {
  torch::nn::GRUCell cell{16, 16};
  torch::nn::Linear head{16, 4};
  torch::Tensor forward(const torch::Tensor &seq) {
    auto h = torch::zeros({seq.size(1), 16}, seq.options());
    for (int64_t t = 0; t < seq.size(0); ++t)
      h = cell(seq[t], h);
    auto out = torch::empty_like(seq);
    out[0] = seq[0];
    for (int64_t t = 1; t < seq.size(0); ++t)
      out[t] = out[t - 1] * 0.9 + seq[t];
    return head(h) + out.sum();
  }
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  net->to(device);
  std::vector<int64_t> order = {3, 1, 2, 0, 4, 5, 6, 7, 8, 9, 10, 11};
  for (int step = 0; step < 100; ++step) {
    auto seq = torch::randn({20, 8, 16}, device);
    auto y = net->forward(seq);
    auto batch = torch::randn({12, 16}, device);
    for (size_t i = 0; i < order.size(); ++i)
      batch[i] = batch[order[i]] * 2;
    for (int64_t i = 0; i < batch.size(0); ++i)
      batch[i] = augment(batch[i]);
    for (int64_t i = 0; i < batch.size(0); ++i)
      y = y + net->head(batch[i]).sum();
    (void)y;
  }
}
