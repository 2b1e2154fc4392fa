// torch-multiple-backward, look-alikes: one backward() of the summed terms; gradient accumulation
// (one backward() per micro-batch, one step() every N); a GAN step (the discriminator's and the
// generator's backward(), each followed by its own optimizer's step()); backward() calls of
// disjoint graphs (separate forward passes: nothing runs twice), as in the DCGAN example's
// discriminator; backward() in alternative branches; a once-only setup.
#include <torch/torch.h>

int main() {
  torch::nn::Linear g(8, 8), d(8, 1);
  torch::optim::Adam opt_g(g->parameters()), opt_d(d->parameters());
  torch::nn::Linear net(8, 2);
  torch::optim::SGD opt(net->parameters(), 0.01);
  {
    auto warm = net(torch::randn({2, 8}));
    warm.sum().backward({}, true);
    warm.mean().backward(); // once, before training
  }
  for (int step = 0; step < 100; ++step) {
    auto out = net(torch::randn({16, 8}));
    auto a = out.pow(2).mean(), b = out.abs().mean();
    opt.zero_grad();
    (a + b).backward();
    opt.step();
  }
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    for (int micro = 0; micro < 4; ++micro) {
      auto loss = net(torch::randn({4, 8})).pow(2).mean() / 4;
      loss.backward();
    }
    opt.step();
  }
  for (int step = 0; step < 100; ++step) {
    auto real = torch::randn({16, 8});
    auto fake = g(torch::randn({16, 8}));
    opt_d.zero_grad();
    auto d_real = torch::binary_cross_entropy_with_logits(d(real), torch::ones({16, 1}));
    d_real.backward();
    auto d_fake = torch::binary_cross_entropy_with_logits(d(fake.detach()), torch::zeros({16, 1}));
    d_fake.backward(); // disjoint graphs: each node runs once either way
    opt_d.step();
    opt_g.zero_grad();
    auto g_loss = torch::binary_cross_entropy_with_logits(d(fake), torch::ones({16, 1}));
    g_loss.backward({}, true);
    opt_g.step();
    opt_d.zero_grad();
    auto again = d(fake.detach()).mean();
    again.backward(); // a new step: the optimizer stepped in between
    opt_d.step();
  }
  for (int step = 0; step < 100; ++step) {
    auto out = net(torch::randn({16, 8}));
    opt.zero_grad();
    if (step % 2 == 0)
      out.pow(2).mean().backward({}, true);
    else
      out.abs().mean().backward();
    opt.step();
  }
  return 0;
}
