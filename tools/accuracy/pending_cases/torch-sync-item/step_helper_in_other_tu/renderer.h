// Folder case (one project, two translation units): the training loop in trainer.cpp calls
// Renderer::render(), defined in renderer.cpp, on every step. renderer.cpp alone has no loop that calls
// it; only the project model (issue 23) sees that its syncs run per step. Seen in a NeRF trainer
// (assertions on index bounds read back with item() inside the renderer) and a Gaussian-splatting
// trainer (an early return on radii.sum().item() in the model's forward, defined in model.cpp).
#pragma once
#include <torch/torch.h>

struct Renderer {
  torch::nn::Linear field{torch::nn::LinearOptions(3, 4)};
  torch::Tensor render(const torch::Tensor &pts);
};
