// torch-sync-host-copy, per-file mode: a data set's own file, with no training step in it. Its
// constructor reads the images once per data set (a file list, one host copy per image), wherever
// the training loop is: not a step loop (model/LocalModel.h, isDataSetConstructor), and neither is
// the helper only the constructor calls. Seen in a NeRF trainer's Dataset.cpp. get(), which the
// loader calls per batch, keeps its finding (look-alike: dataset_get_per_batch.cpp).
#include <torch/torch.h>
#include <fstream>
#include <string>
#include <vector>

torch::Tensor readImage(const std::string &path); // defined in image_io.cpp

class RayDataset {
public:
  explicit RayDataset(const std::string &root) {
    std::ifstream list(root + "/image_list.txt");
    for (int i = 0; i < count_; ++i) {
      std::string path;
      std::getline(list, path);
      images_.push_back(readImage(path).to(torch::kCPU)); // once per data set: no finding
    }
    loadPoses(root);
  }

private:
  void loadPoses(const std::string &root) {
    for (int i = 0; i < count_; ++i)
      poses_.push_back(readImage(root + "/pose_" + std::to_string(i)).to(torch::kCPU)); // no finding
  }
  int count_ = 100;
  std::vector<torch::Tensor> images_, poses_;
};
