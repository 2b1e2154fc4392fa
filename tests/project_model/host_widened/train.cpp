#include "loader.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void moveMixed(Camera &cam) { cam.mixed = cam.mixed.cuda(); }

int main() {
  Image img;
  Camera cam;
  cam.load(img);
  moveMixed(cam);
  Net net;
  torch::Device device(torch::kCUDA);
  // Once, and in a loop that only loads: not per step.
  at::Tensor first = cam.getImage(1).to(device);
  std::vector<at::Tensor> cache;
  for (int i = 0; i < 4; ++i)
    cache.push_back(cam.getImage(i).to(device));
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor gt = cam.getImage(step % 4);
    gt = gt.to(device);                            // widened in imageToTensor() (loader.cpp)
    at::Tensor direct = imageToTensor(img).cuda(); // the same
    at::Tensor field = cam.image.to(device);       // the same, through the field
    at::Tensor d = cam.depth.to(device);           // float data: nothing to say
    at::Tensor m = cam.getMaybe(step).to(device);  // one source not known
    at::Tensor x = cam.mixed.to(device);           // also holds a device tensor
    at::Tensor p = cam.plain.to(device);           // also holds a float tensor never converted
    at::Tensor e = cam.getImage(2);
    fill(e);
    e = e.to(device);                              // written by fill() before the copy: not known
    at::Tensor loss = net.forward(gt + direct + field + d + m + x + p + e + first).mean() + lossOf(gt);
    loss.backward();
    opt.step();
  }
}
