#include "scene.h"

at::Tensor read_image(int i);

void Scene::load(int n) {
  std::vector<at::Tensor> read;
  for (int i = 0; i < n; ++i) {
    read.push_back(read_image(i).to(at::kCPU));
    exposure.push_back(torch::ones({1}));
  }
  images = torch::stack(read, 0).contiguous();
  poses = torch::rand({n, 4, 4}, at::TensorOptions(at::kCUDA));
  depth = torch::zeros({n, 64, 64});
}
