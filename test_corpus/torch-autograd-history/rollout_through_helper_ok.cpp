// torch-autograd-history, negative: value buffers handed to a helper whose result is used with
// its history, or to a helper that might keep it.
// - A2C: the returns computed from the undetached values are differentiated (the critic's loss is
//   `(returns - values)` through the same graphs): the history is wanted.
// - A helper that stores what it reads in a global cache: the history may outlive the call.
// - A non-static method of a trainer object: it may keep the values in its fields.
#include <torch/torch.h>
#include <vector>

using Buffer = std::vector<torch::Tensor>;

Buffer discounted(const Buffer &rewards, const Buffer &values, double gamma) {
  Buffer out(rewards.size());
  torch::Tensor next = values.back();
  for (int64_t i = static_cast<int64_t>(rewards.size()) - 1; i >= 0; --i)
    out[i] = next = rewards[i] + gamma * next;
  return out;
}

Buffer cache;
Buffer remember(const Buffer &values) {
  cache.insert(cache.end(), values.begin(), values.end());
  return Buffer(values.size(), torch::zeros({1}));
}

struct Trainer {
  Buffer seen;
  Buffer returns(const Buffer &values) {
    seen = values;
    return values;
  }
};

int main() {
  torch::nn::Linear critic(4, 1);
  torch::optim::SGD opt(critic->parameters(), 0.01);
  Buffer rewards, values, values2, values3;
  Trainer trainer;
  for (int t = 1; t <= 100000; ++t) {
    auto s = torch::randn({1, 4});
    values.push_back(critic(s));
    values2.push_back(critic(s));
    values3.push_back(critic(s));
    rewards.push_back(torch::rand({1, 1}));
    if (t % 32 == 0) {
      Buffer ret = discounted(rewards, values, 0.99);
      auto loss = (torch::cat(ret) - torch::cat(values)).pow(2).mean();
      Buffer r2 = remember(values2);
      Buffer r3 = trainer.returns(values3);
      auto kept = torch::cat(r2).detach();
      auto mine = torch::cat(r3).detach();
      opt.zero_grad();
      (loss + 0 * kept.sum() + 0 * mine.sum()).backward();
      opt.step();
      rewards.clear();
      values.clear();
      values2.clear();
      values3.clear();
    }
  }
}
