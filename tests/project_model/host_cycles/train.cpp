#include "shapes.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Net net;
  std::vector<double> coords;
  Shapes shapes(coords);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor out = net.forward(torch::rand({16, 4}, at::TensorOptions(at::kCUDA)));
    float target = shapes.crop(0.5).perimeter() + shapes.flip().perimeter();
    std::vector<at::Tensor> gpu_points;
    gpu_points.push_back(out);
    Tracks tracks(gpu_points);
    target += tracks.shift().length();
    at::Tensor loss = out.mean() * target;
    loss.backward();
    opt.step();
  }
}
