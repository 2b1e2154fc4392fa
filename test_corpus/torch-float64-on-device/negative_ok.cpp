// torch-float64-on-device look-alikes: double on the host (metrics, an accumulator copied back,
// host data converted to float before the copy), a small double accumulator on the device, a
// checkpoint converted once in set-up code, float32 everywhere else.
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(512, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto ckpt = torch::randn({512, 10}, torch::kDouble);
  auto as_float = ckpt.to(device).to(torch::kFloat);
  auto loaded = ckpt.to(torch::kDouble).to(device);  // once, in set-up code
  auto host_sum = torch::zeros({}, torch::kDouble);
  auto dev_sum = torch::zeros({1}, torch::TensorOptions().dtype(torch::kDouble).device(device));
  std::vector<double> rows(64 * 512, 0.5);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::from_blob(rows.data(), {64, 512}, torch::kDouble).to(torch::kFloat).to(device);
    auto out = model->forward(x);
    auto loss = torch::nn::functional::cross_entropy(out, torch::zeros({64}, torch::TensorOptions().dtype(torch::kLong).device(device)));
    opt.zero_grad();
    loss.backward();
    opt.step();
    host_sum += loss.detach().cpu().to(torch::kDouble);
    auto metrics = out.detach().cpu().to(torch::kDouble).mean();
    (void)metrics;
    (void)dev_sum;
  }
  return (as_float.numel() + loaded.numel()) > 0 ? 0 : 1;
}
