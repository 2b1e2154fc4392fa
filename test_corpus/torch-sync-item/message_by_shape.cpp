// The advice follows the shape of the read (issue 25): a per-element read in a loop over a
// tensor's elements (detections, boxes, label lookup, token ids) is told to copy the whole tensor
// to the host once before the loop and use an accessor; a scalar accumulated per step to
// accumulate on the device (with detach()) and read once per logging interval; any other scalar
// read keeps the general advice. Every tensor here is proven to be on the GPU (the model's input is
// made there): the read blocks (unknown devices: provenance_returns.cpp).
#include <torch/torch.h>
#include <iostream>
#include <string>
#include <vector>

struct DetectorImpl : torch::nn::Module {
  torch::nn::Linear head{nullptr};
  DetectorImpl() { head = register_module("head", torch::nn::Linear(16, 6)); }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
};
TORCH_MODULE(Detector);

std::string decode(const torch::Tensor &ids) {
  std::string text;
  auto flat = ids.squeeze(0);
  for (int64_t i = 0; i < flat.size(0); ++i)
    text += std::to_string(flat.index({i}).item<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, once per element of `flat` read in a loop over its elements; copy the whole tensor to the host once, before the loop (`auto flat_cpu = flat.cpu();`, or `.to(torch::kCPU)`), and read the elements through an accessor (`flat_cpu.accessor<int, 1>()`) (in the loop at line 22 of decode()) [torch-sync-item]
  return text;
}

int main() {
  torch::Device device(torch::kCUDA);
  Detector det;
  det->to(device);
  std::vector<std::string> names = {"cat", "dog", "car", "bus", "bike", "tree"};
  float total = 0;
  for (int image = 0; image < 100; ++image) {
    auto out = det(torch::randn({8, 16}, device));
    auto boxes = out.slice(1, 0, 4);
    auto labels = out.argmax(1);
    for (int64_t i = 0; i < boxes.size(0); ++i) {
      auto box = boxes[i];
      float x0 = box[0].item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, once per element of `boxes` read in a loop over its elements; copy the whole tensor to the host once, before the loop (`auto boxes_cpu = boxes.cpu();`, or `.to(torch::kCPU)`), and read the elements through an accessor (`boxes_cpu.accessor<float, 2>()`) (in the loop at line 38 of main()) [torch-sync-item]
      std::string name = names[labels[i].item<int64_t>()];
      // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: read in a loop over its elements; copy the whole tensor to the host once, before the loop (`auto labels_cpu = labels.cpu();`, or `.to(torch::kCPU)`), and read the elements through an accessor (`labels_cpu.accessor<int64_t, 1>()`) (in the loop at line 38 of main()) [torch-sync-item]
      float score = out.select(0, i).max().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 38 of main()) [torch-sync-item]
      std::cout << name << " " << x0 << " " << score << "\n";
    }
    // A constant index is not a loop over the elements: the general advice.
    float first = out[0][0].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 34 of main()) [torch-sync-item]
    // A scalar accumulated per step.
    auto loss = out.pow(2).mean();
    total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; accumulate the value on the device instead (`total += loss.detach()`: without detach() every step's autograd graph stays alive) and read it once per logging interval (in the loop at line 34 of main()) [torch-sync-item]
    // A tensor proven to be on the GPU (a factory given the device): the read blocks.
    auto noise = torch::randn({4}, device);
    total -= noise.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; accumulate the value on the device instead [torch-sync-item]
    std::cout << decode(labels.unsqueeze(0)) << first << "\n";
  }
  std::cout << total << "\n";
}
