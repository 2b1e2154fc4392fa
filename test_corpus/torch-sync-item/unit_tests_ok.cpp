// torch-sync-item: unit-test bodies are not training steps. A GoogleTest TEST / TEST_F body runs
// once per test run, even when it loops over a few steps, so nothing in it is hot, and its loops
// make no helper hot. (Positive counterpart: unit_tests.cpp, a real training loop a test calls.)
#include <torch/torch.h>
#include <gtest/gtest.h>

static float read_loss(const torch::Tensor &loss) { return loss.item<float>(); } // only tests call it

TEST(Optimizer, LossGoesDown) {
  torch::nn::Linear net(4, 1);
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), 0.1);
  float first = 0, last = 0;
  for (int step = 0; step < 20; ++step) {
    opt.zero_grad();
    auto loss = net->forward(torch::ones({8, 4}, torch::kCUDA)).pow(2).mean();
    loss.backward();
    opt.step();
    last = loss.item<float>();
    if (step == 0)
      first = read_loss(loss);
  }
  EXPECT_LT(last, first);
}

struct ModelTest : ::testing::Test {
  torch::Tensor w = torch::randn({4}, torch::kCUDA);
};

TEST_F(ModelTest, EachStepIsFinite) {
  for (int i = 0; i < 5; ++i) {
    auto loss = (w * w).sum();
    EXPECT_TRUE(std::isfinite(loss.item<float>()));
    auto check = [&] { return w.sum().item<double>(); };
    EXPECT_GT(check(), -1e9);
  }
}

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
