// torch-sync-item in a .cu file whose kernels use what the CUDA toolkit gives device code: the C
// math library (cosf, expf, sqrt), vector types (float3, make_float3), atomics, barriers, warp
// shuffles and fast-math intrinsics. The kernels are parsed without a toolkit (cli/CudaHost.h)
// and must parse without errors (they are not judged): a compiler error in one would leave the
// file analysed partially. Finding: the per-step item() in the glue code; quiet: the read after
// training.
#include <torch/torch.h>

__global__ void cutoff_kernel(const float *__restrict__ d, float *__restrict__ out, float cutoff, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = d[i] > cutoff ? 0.0f : 0.5f * (cosf(d[i] * 3.14159265f / cutoff) + 1.0f) * __expf(-d[i]);
}

__global__ void force_kernel(const float3 *__restrict__ grad, const int *__restrict__ ptr, float3 *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float3 f = make_float3(0.0f, 0.0f, 0.0f);
  for (int e = ptr[i]; e < ptr[i + 1]; ++e) {
    f.x += grad[e].x;
    f.y += grad[e].y;
    f.z += grad[e].z;
  }
  atomicAdd(&force[i].x, f.x);
  atomicAdd(&force[i].y, static_cast<float>(sqrt(static_cast<double>(f.y * f.y))));
  atomicMax(const_cast<int *>(ptr), min(i, n));
}

__global__ void sum_kernel(const float *x, float *total, int n) {
  __shared__ float partial[256];
  float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  partial[threadIdx.x] = fmaxf(v, 0.0f);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(total, partial[0] + __fdividef(1.0f, 2.0f));
}

torch::Tensor cutoff(torch::Tensor d, float c) {
  auto out = torch::empty_like(d);
  const int n = static_cast<int>(d.numel());
  cutoff_kernel<<<(n + 255) / 256, 256>>>(d.data_ptr<float>(), out.data_ptr<float>(), c, n);
  return out;
}

float fit(torch::nn::Linear &model, torch::optim::Adam &opt, torch::Tensor d, torch::Tensor target) {
  float last = 0;
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(cutoff(d, 5.0f)), target);
    loss.backward();
    opt.step();
    last = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: Tensor::item() copies [torch-sync-item]
  }
  return last + torch::mse_loss(model->forward(d), target).item<float>(); // quiet: once, after training
}
