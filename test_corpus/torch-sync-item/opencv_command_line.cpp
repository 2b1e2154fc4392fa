// torch-sync-item with OpenCV's command-line parser (issue 24): main() reads its options with
// cv::CommandLineParser and times the epoch with cv::getTickCount, from OpenCV headers that are
// not installed. The stand-in declares them, so main() and its training loop are typed and
// judged (before, every statement that used the parser was a compiler error, and with it the model
// sized from an option and the whole training loop): the per-step item() is reported.
// TORCHLINT-MISSING-HEADERS: opencv2/opencv.hpp
#include <torch/torch.h>
#include <opencv2/opencv.hpp>
#include <iostream>

const char *keys = "{help h usage ? | | print this message}"
                   "{@data_dir | <none> | data folder}"
                   "{epochs | 10 | epochs}"
                   "{lr | 0.01 | learning rate}"
                   "{features | 32 | input features}";

int main(int argc, char *argv[]) {
  cv::CommandLineParser parser(argc, argv, keys);
  parser.about("trainer");
  if (parser.has("help")) {
    parser.printMessage();
    return 0;
  }
  std::string data_dir = parser.get<cv::String>(0);
  auto epochs = parser.get<int>("epochs");
  auto lr = parser.get<double>("lr");
  auto features = parser.get<int64_t>("features");
  if (!parser.check()) {
    parser.printErrors();
    return 1;
  }
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(features, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(lr));
  for (int epoch = 0; epoch < epochs; ++epoch) {
    cv::int64 start = cv::getTickCount();
    double total = 0;
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({64, features}, device);
      auto loss = net->forward(x).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: Tensor::item() copies the value to the host [torch-sync-item]
    }
    double seconds = (cv::getTickCount() - start) / cv::getTickFrequency();
    std::cout << data_dir << " epoch " << epoch << " loss " << total / 100 << " in " << seconds << " s\n";
  }
  return 0;
}
