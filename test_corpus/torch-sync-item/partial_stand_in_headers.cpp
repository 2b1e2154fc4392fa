// torch-sync-item in a program whose option parser (cxxopts), image library (OpenCV) and JSON
// library (nlohmann/json) are not installed (issue 14). torchlint's stand-in headers
// (stand-ins/README.md) type the code that uses them: the epoch count read from the options, the
// dataset that decodes cv::Mat images, and the loader over it are typed, so the training loop is
// judged. The file is still reported as analysed partially, naming each missing header.
// TORCHLINT-MISSING-HEADERS: cxxopts.hpp opencv2/opencv.hpp nlohmann/json.hpp
#include <torch/torch.h>
#include <cxxopts.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/opencv.hpp>

struct Images : torch::data::datasets::Dataset<Images> {
  explicit Images(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  torch::data::Example<> get(size_t i) override {
    cv::Mat img = cv::imread(paths_[i]);
    cv::resize(img, img, cv::Size(64, 64));
    cv::cvtColor(img, img, cv::COLOR_BGR2RGB);
    auto x = torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kUInt8);
    return {x.permute({2, 0, 1}).to(torch::kFloat).div(255), torch::tensor(static_cast<int64_t>(i % 10))};
  }
  torch::optional<size_t> size() const override { return paths_.size(); }
  std::vector<std::string> paths_;
};

int main(int argc, char **argv) {
  cxxopts::Options options("train", "an image classifier");
  options.add_options()("epochs", "epochs", cxxopts::value<int>()->default_value("10"))(
      "config", "the JSON configuration", cxxopts::value<std::string>());
  auto args = options.parse(argc, argv);
  const auto epochs = args["epochs"].as<int>();
  std::ifstream in(args["config"].as<std::string>());
  auto config = nlohmann::json::parse(in);
  const auto lr = config.value("lr", 0.01);
  std::vector<std::string> paths = config["images"];
  auto loader = torch::data::make_data_loader(Images(paths).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(32).workers(4));
  torch::nn::Sequential net(torch::nn::Flatten(), torch::nn::Linear(3 * 64 * 64, 10));
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), lr);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    float total = 0;
    for (auto &batch : *loader) {
      auto x = batch.data.to(torch::kCUDA, /*non_blocking=*/true);
      auto y = batch.target.to(torch::kCUDA, /*non_blocking=*/true);
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: Tensor::item() copies the value to the host [torch-sync-item]
    }
    std::cout << config["name"].get<std::string>() << " " << total << "\n";
  }
}
