// Look-alike of dataset_constructor_alone.cpp: the same data set's file, but the copy sits in
// get(), which the data loader calls for every batch; the file cannot tell who calls it, so the
// copy in its loop stays a finding in per-file mode, as in a scene class not named for a data set.
#include <torch/torch.h>
#include <string>
#include <vector>

torch::Tensor readImage(const std::string &path); // defined in image_io.cpp

class RayDataset {
public:
  torch::Tensor get(int64_t index) {
    std::vector<torch::Tensor> views;
    for (int k = 0; k < 4; ++k)
      views.push_back(readImage("img_" + std::to_string(index + k)).to(torch::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: (in the loop at line 14 of RayDataset::get()) [torch-sync-host-copy]
    return torch::stack(views);
  }
};

struct Scene {
  explicit Scene(int n) {
    for (int i = 0; i < n; ++i)
      images.push_back(readImage("img_" + std::to_string(i)).to(torch::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: (in the loop at line 23 of Scene::Scene()) [torch-sync-host-copy]
  }
  std::vector<torch::Tensor> images;
};
