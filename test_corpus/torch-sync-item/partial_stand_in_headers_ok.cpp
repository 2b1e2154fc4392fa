// Negative: what torchlint's stand-in headers declare is never mistaken for a tensor (issue 14).
// Reading a cv::Mat pixel, a JSON value or an option in the training loop is host work, not a
// device sync; the stand-ins are system headers, so nothing inside them is reported.
// TORCHLINT-MISSING-HEADERS: cxxopts.hpp opencv2/opencv.hpp nlohmann/json.hpp
#include <torch/torch.h>
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>
#include <opencv2/opencv.hpp>

int main(int argc, char **argv) {
  cxxopts::Options options("train");
  options.add_options()("scale", "input scale", cxxopts::value<float>()->default_value("1"));
  auto args = options.parse(argc, argv);
  nlohmann::json log = nlohmann::json::array();
  cv::Mat mask = cv::imread("mask.png", cv::IMREAD_GRAYSCALE);
  auto model = torch::nn::Linear(8, 1);
  model->to(torch::kCUDA);
  torch::optim::Adam opt(model->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) {
    float scale = args["scale"].as<float>();
    float weight = mask.at<float>(step % mask.rows, 0);
    auto x = torch::randn({16, 8}, torch::kCUDA) * scale * weight;
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    log.push_back({{"step", step}, {"scale", scale}});
    if (log.size() > 100 && log.back()["step"].get<int>() % 100 == 0)
      log.clear();
  }
  std::cout << log.dump(2) << "\n";
}
