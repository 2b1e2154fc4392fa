// torch-frozen-net-grad: knowledge distillation. A pretrained teacher (parameters in no optimizer)
// is run on every batch with autograd on (before): autograd records its graph, and backward()
// goes through it and computes weight gradients for all its layers that nothing uses. After: its
// parameters set requires_grad_(false) once, as the check advises (its input, the batch, needs no
// gradient, so nothing about the teacher is recorded).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

torch::nn::Sequential mlp(int64_t D, int64_t H, int64_t O) {
  return torch::nn::Sequential(torch::nn::Linear(D, H), torch::nn::ReLU(), torch::nn::Linear(H, H),
                               torch::nn::ReLU(), torch::nn::Linear(H, O));
}

struct Before : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential teacher, student;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, loss;
  int steps_per_call = 1;

  explicit Before(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    teacher = mlp(D, 2 * D, 10);
    student = mlp(D, D / 2, 10);
    teacher->to(c.device);
    student->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(student->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto soft = torch::softmax(teacher->forward(x), 1); // records the teacher's graph
      loss = torch::kl_div(torch::log_softmax(student->forward(x), 1), soft, at::Reduction::Mean);
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *student, "student.");
    return o;
  }
};

struct After : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential teacher, student;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, loss;
  int steps_per_call = 1;

  explicit After(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    teacher = mlp(D, 2 * D, 10);
    student = mlp(D, D / 2, 10);
    teacher->to(c.device);
    student->to(c.device);
    for (auto &p : teacher->parameters())
      p.requires_grad_(false); // frozen once
    opt = std::make_unique<torch::optim::SGD>(student->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto soft = torch::softmax(teacher->forward(x), 1);
      loss = torch::kl_div(torch::log_softmax(student->forward(x), 1), soft, at::Reduction::Mean);
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *student, "student.");
    return o;
  }
};

} // namespace

PROBE_CASE("torch-frozen-net-grad", "distillation-teacher",
           "distillation step with an MLP teacher in no optimizer; before: the teacher runs with autograd on; "
           "after: its parameters set requires_grad_(false) once",
           Before, After, (probe::Tolerance{0, 0, "bitwise: the student's computation is the same"}));
