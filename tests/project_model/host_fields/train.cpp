#include "scene.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void moveDepth(Scene &scene) { scene.depth = scene.depth.cuda(); }

int main() {
  Scene scene;
  scene.load(100);
  moveDepth(scene);
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    int i = step % 100;
    opt.zero_grad();
    at::Tensor loss = net.forward(scene.images[i].cuda()).mean();
    loss.backward();
    opt.step();
    // Host tensors, filled in scene.cpp: reading them costs no sync.
    float brightness = scene.images[i].mean().item<float>();
    float gain = scene.exposure[i].item<float>();
    // On the GPU: each read waits for the step's kernels.
    float tilt = scene.poses[i].sum().item<float>();
    // Host in scene.cpp, moved to the GPU by moveDepth(): not only host.
    float near = scene.depth[i].mean().item<float>();
    std::cout << brightness + gain + tilt + near;
  }
}
