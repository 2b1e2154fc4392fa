// torch-index-in-loop: rows of a batch handed one by one to objects of the user's (a search-tree
// node per sample, built from its state, mask and prior rows: rl-cpp's AlphaZero self-play) are
// no vectorisable work: `index({i})` with an integer is a view, and each row goes its own way.
// Nothing here is reported. (A row that is computed on in the loop: rows_into_objects.cpp.)
#include <torch/torch.h>
#include <memory>
#include <vector>

struct Node {
  Node(torch::Tensor state, torch::Tensor prior, float value) : state(state), prior(prior), value(value) {}
  torch::Tensor state, prior;
  float value;
};

std::vector<std::shared_ptr<Node>> roots(const torch::Tensor &states, const torch::Tensor &priors,
                                         const std::vector<float> &values, int64_t n) {
  std::vector<std::shared_ptr<Node>> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(std::make_shared<Node>(states.index({i}), priors.index({i}), values[i]));
  return out;
}

std::vector<Node> leaves(const torch::Tensor &states, const torch::Tensor &priors, int64_t n) {
  std::vector<Node> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(Node(states[i], priors[i], 0.f));
  return out;
}

int main() {
  torch::nn::Linear policy(8, 4);
  policy->to(torch::kCUDA);
  torch::optim::SGD opt(policy->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 100; ++step) {
    torch::Tensor states = torch::randn({64, 8}, torch::kCUDA);
    torch::Tensor priors = torch::softmax(policy->forward(states), 1);
    auto nodes = roots(states, priors.detach(), std::vector<float>(64, 0.f), 64);
    auto more = leaves(states, priors.detach(), 64);
    torch::Tensor loss = -priors.log().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
