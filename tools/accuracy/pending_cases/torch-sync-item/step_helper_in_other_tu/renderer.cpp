#include "renderer.h"
#include <stdexcept>

torch::Tensor Renderer::render(const torch::Tensor &pts) {
  auto out = field->forward(pts);
  if (out.isnan().any().item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: [torch-sync-item]
    throw std::runtime_error("nan in the field");
  auto density = torch::relu(out.narrow(1, 0, 1));
  if (density.sum().item<float>() == 0.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: [torch-sync-item]
    return torch::zeros({pts.size(0), 3}, pts.options());
  return torch::sigmoid(out.narrow(1, 1, 3)) * density;
}
