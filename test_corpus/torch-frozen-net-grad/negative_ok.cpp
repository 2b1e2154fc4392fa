// torch-frozen-net-grad look-alikes: networks whose parameters ARE in an optimizer (GAN generator
// and discriminator, each in its own); a frozen network with requires_grad_(false) on its
// parameters; one run under NoGradGuard; a submodule of a trained model (its parameters are in its
// parent's); a network handed to a user function (not followed: may build its optimizer); a
// network run only in an evaluation function that does not train.
#include <torch/torch.h>

struct Model : torch::nn::Module {
  torch::nn::Linear backbone{nullptr}, head{nullptr};
  Model() {
    backbone = register_module("backbone", torch::nn::Linear(16, 16));
    head = register_module("head", torch::nn::Linear(16, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return head(torch::relu(backbone(x))); }
};

std::unique_ptr<torch::optim::Optimizer> make_opt(torch::nn::Linear &net) {
  return std::make_unique<torch::optim::SGD>(net->parameters(), 0.1);
}

float evaluate(torch::nn::Linear &m, const torch::Tensor &x) {
  return m->forward(x).mean().item<float>();
}

int main() {
  torch::nn::Linear gen(8, 16), disc(16, 1);
  torch::optim::Adam gopt(gen->parameters()), dopt(disc->parameters());
  torch::nn::Linear frozen(16, 16);
  for (auto &p : frozen->parameters())
    p.requires_grad_(false);
  torch::nn::Linear guarded(16, 16);
  torch::nn::Linear handed(16, 16);
  auto hopt = make_opt(handed);
  auto model = std::make_shared<Model>();
  torch::optim::SGD mopt(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    auto z = torch::randn({32, 8});
    auto fake = gen->forward(z);
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = guarded->forward(fake.detach());
    }
    auto loss = disc->forward(frozen->forward(fake)).mean() + handed->forward(fake).mean() +
                model->forward(fake).mean() + (fake - target).pow(2).mean();
    gopt.zero_grad();
    dopt.zero_grad();
    loss.backward();
    gopt.step();
    dopt.step();
    hopt->step();
    mopt.step();
    if (step % 10 == 0)
      evaluate(guarded, fake.detach());
  }
  return 0;
}
