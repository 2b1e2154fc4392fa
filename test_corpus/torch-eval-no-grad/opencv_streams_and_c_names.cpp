// torch-eval-no-grad in a trainer that writes its log with std::ofstream and converts images with
// OpenCV's C API name CV_BGR2RGB, including only opencv2/opencv.hpp, which is not installed. Real
// OpenCV headers bring in <fstream>, <iostream> and <sstream>, and OpenCV 3's the C API's
// names; the stand-in did not, so the log stream and the conversion were compiler errors in the
// trainer, and the finding resting on it was dropped (a siamese network's per-epoch validation).
// TORCHLINT-MISSING-HEADERS: opencv2/opencv.hpp
#include <torch/torch.h>
#include <opencv2/opencv.hpp>

struct EmbedderImpl : torch::nn::Module {
  EmbedderImpl() { fc = register_module("fc", torch::nn::Linear(48, 8)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.flatten(1)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Embedder);

torch::Tensor to_tensor(const cv::Mat &bgr) {
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, CV_BGR2RGB);
  return torch::from_blob(rgb.data, {1, 4, 4, 3}, torch::kUInt8).to(torch::kFloat).div(255);
}

float validate(Embedder &model, const std::vector<cv::Mat> &pairs) {
  model->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: module evaluated after eval() with gradient recording on: forward() at line 28 saves every activation for a backward() that never comes; add `torch::NoGradGuard no_grad;` (or c10::InferenceMode) to the evaluation scope [torch-eval-no-grad]
  float distance = 0;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
    torch::Tensor a = model->forward(to_tensor(pairs[i]));
    torch::Tensor b = model->forward(to_tensor(pairs[i + 1]));
    distance += torch::pairwise_distance(a, b).sum().item<float>();
  }
  return distance;
}

void train(Embedder &model, const std::vector<cv::Mat> &pairs, int epochs) {
  std::ofstream log("train.log");
  torch::optim::Adam opt(model->parameters(), 1e-3);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    model->train();
    for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
      torch::Tensor loss = torch::pairwise_distance(model->forward(to_tensor(pairs[i])),
                                                    model->forward(to_tensor(pairs[i + 1]))).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    log << "epoch " << epoch << " validation " << validate(model, pairs) << "\n";
  }
}
