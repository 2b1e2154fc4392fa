// Small models the cases and seeds share.
#pragma once
#include "probe/Probe.h"

namespace probe {

/// Seed 003's segmentation net: conv_in, `hidden` 3x3 conv+ReLU layers, conv_out; per-pixel logits.
struct SegNetImpl : torch::nn::Module {
  torch::nn::Conv2d conv_in{nullptr}, conv_out{nullptr};
  torch::nn::Sequential hidden;
  SegNetImpl(int64_t num_hidden = 10, int64_t num_classes = 10, int64_t width = 10) {
    auto conv = [](int64_t in, int64_t out) {
      return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1));
    };
    conv_in = register_module("conv_in", conv(3, width));
    for (int64_t i = 0; i < num_hidden; ++i) {
      hidden->push_back(conv(width, width));
      hidden->push_back(torch::nn::ReLU());
    }
    register_module("hidden", hidden);
    conv_out = register_module("conv_out", conv(width, num_classes));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv_in->forward(x));
    x = hidden->forward(x);
    return conv_out->forward(x);
  }
};
TORCH_MODULE(SegNet);

/// A small image classifier: conv-bn-relu blocks, global pooling, linear head.
struct ConvNetImpl : torch::nn::Module {
  torch::nn::Sequential features;
  torch::nn::Linear head{nullptr};
  ConvNetImpl(int64_t width = 32, int64_t num_classes = 10) {
    int64_t in = 3;
    for (int64_t w : {width, width * 2, width * 2}) {
      features->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, w, 3).padding(1).bias(false)));
      features->push_back(torch::nn::BatchNorm2d(w));
      features->push_back(torch::nn::ReLU());
      features->push_back(torch::nn::MaxPool2d(2));
      in = w;
    }
    register_module("features", features);
    head = register_module("head", torch::nn::Linear(in, num_classes));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = features->forward(x);
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    return head->forward(x);
  }
};
TORCH_MODULE(ConvNet);

} // namespace probe
