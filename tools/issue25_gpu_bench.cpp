// Measures, on a CUDA device, the effects the four checks of issue 25 name (checks-b).
#include <torch/torch.h>
#include <chrono>
#include <algorithm>
#include <cstdio>
#include <vector>

static double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
template <class F> double median_ms(F f, int reps = 20) {
  std::vector<double> v;
  for (int i = 0; i < 3; ++i) f();
  torch::cuda::synchronize();
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    torch::cuda::synchronize();
    v.push_back(ms_since(t0));
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  torch::Device dev(torch::kCUDA);
  // 1. from_blob with pinned_memory(true)
  const int64_t N = 64 << 20; // 64 Mi floats = 256 MiB
  std::vector<float> host(N, 1.0f);
  auto wrapped = torch::from_blob(host.data(), {N}, torch::TensorOptions().pinned_memory(true));
  std::printf("from_blob(pinned_memory(true)).is_pinned() = %d\n", (int)wrapped.is_pinned());
  auto staging = torch::empty({N}, torch::TensorOptions().pinned_memory(true));
  std::printf("torch::empty(pinned_memory(true)).is_pinned() = %d\n", (int)staging.is_pinned());
  auto busy = torch::randn({8192, 8192}, dev);
  // host time until the non_blocking copy call returns, with GPU work queued before it
  auto host_block = [&](const torch::Tensor &src) {
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) {
      torch::cuda::synchronize();
      for (int k = 0; k < 4; ++k) busy = busy.mm(busy).div_(8192);
      auto t0 = std::chrono::steady_clock::now();
      auto d = src.to(dev, /*non_blocking=*/true);
      v.push_back(ms_since(t0));
      torch::cuda::synchronize();
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  staging.copy_(wrapped);
  std::printf("host ms blocked in .to(dev, non_blocking) of 256 MiB: from_blob(pinned flag) %.2f, pinned staging %.3f\n",
              host_block(wrapped), host_block(staging));
  // 2. uint8 images: convert then copy vs copy then convert
  auto img = torch::randint(0, 256, {64, 224, 224, 3}, torch::kByte);
  double before = median_ms([&] { auto x = img.permute({0, 3, 1, 2}).to(torch::kFloat).div(255).to(dev); });
  double after = median_ms([&] { auto x = img.to(dev).permute({0, 3, 1, 2}).to(torch::kFloat).div(255); });
  std::printf("uint8 64x224x224x3: convert+div on host then copy %.2f ms (%.1f MB copied); copy then convert %.2f ms (%.1f MB)\n",
              before, img.numel() * 4 / 1e6, after, img.numel() / 1e6);
  // 3. float64 vs float32 MLP training step
  auto mlp = [&](torch::Dtype dt) {
    torch::nn::Sequential net(torch::nn::Linear(4096, 4096), torch::nn::ReLU(), torch::nn::Linear(4096, 4096));
    net->to(dev, dt);
    torch::optim::SGD opt(net->parameters(), 0.01);
    auto x = torch::randn({1024, 4096}, torch::TensorOptions().device(dev).dtype(dt));
    return median_ms([&] { auto l = net->forward(x).pow(2).mean(); opt.zero_grad(); l.backward(); opt.step(); });
  };
  double f32 = mlp(torch::kFloat), f64 = mlp(torch::kDouble);
  at::globalContext().setAllowTF32CuBLAS(true);
  double tf32 = mlp(torch::kFloat);
  std::printf("MLP 2x4096 step, batch 1024: float32 %.2f ms (TF32 %.2f ms), float64 %.2f ms\n", f32, tf32, f64);
  at::globalContext().setAllowTF32CuBLAS(false);
  // 4. frozen teacher: autograd on vs requires_grad_(false)
  auto distill = [&](bool freeze) {
    torch::nn::Sequential teacher(torch::nn::Linear(4096, 8192), torch::nn::ReLU(), torch::nn::Linear(8192, 8192),
                                  torch::nn::ReLU(), torch::nn::Linear(8192, 10));
    torch::nn::Sequential student(torch::nn::Linear(4096, 1024), torch::nn::ReLU(), torch::nn::Linear(1024, 10));
    teacher->to(dev);
    student->to(dev);
    if (freeze)
      for (auto &p : teacher->parameters()) p.requires_grad_(false);
    torch::optim::SGD opt(student->parameters(), 0.01);
    auto x = torch::randn({512, 4096}, dev);
    return median_ms([&] {
      auto soft = torch::softmax(teacher->forward(x), 1);
      auto l = torch::kl_div(torch::log_softmax(student->forward(x), 1), soft, at::Reduction::Mean);
      opt.zero_grad(); l.backward(); opt.step();
    });
  };
  double on = distill(false), off = distill(true);
  std::printf("distillation step (teacher 4096-8192-8192-10, batch 512): teacher with autograd %.2f ms, frozen %.2f ms\n", on, off);
  return 0;
}
