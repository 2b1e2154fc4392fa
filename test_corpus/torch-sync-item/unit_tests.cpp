// torch-sync-item: a test body is not hot, but the training code it exercises is: train() loops
// over steps itself, and a helper stays hot when real code calls it in a loop, whoever else calls
// it. Look-alikes of test bodies that are not: TestBody() of a class that is neither a
// ::testing::Test nor named `*_Test`.
#include <torch/torch.h>
#include <gtest/gtest.h>

float train(torch::nn::Linear &net, int steps) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  float total = 0;
  for (int step = 0; step < steps; ++step) {
    opt.zero_grad();
    auto loss = net->forward(torch::ones({8, 4}, torch::kCUDA)).pow(2).mean();
    loss.backward();
    opt.step();
    total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }
  return total;
}

float norm_of(const torch::Tensor &t) { return t.norm().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:57: warning: Tensor::item() copies the value to the host [torch-sync-item]

TEST(Train, Converges) {
  torch::nn::Linear net(4, 1);
  net->to(torch::kCUDA);
  EXPECT_GT(train(net, 10), 0.f);
  for (int i = 0; i < 3; ++i)
    EXPECT_GT(norm_of(net->weight), 0.f);
}

struct Scenario { // a TestBody() that is no test's (called by another file: this one cannot tell how often)
  void TestBody() {
    auto w = torch::randn({4}, torch::kCUDA);
    for (int i = 0; i < 3; ++i)
      (void)w.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }
};

int main(int argc, char **argv) {
  torch::nn::Linear net(4, 1);
  net->to(torch::kCUDA);
  for (int epoch = 0; epoch < 3; ++epoch)
    (void)norm_of(net->weight); // real code calls it in a loop
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
