// torch-frozen-net-grad in a trainer written as a class template (a segmentation trainer over any
// architecture): the model member's parameters go to the optimizer built in the instantiated
// Train(), so it is trained, not frozen; the teacher member of the same template is in no
// optimizer and is reported. Uses are looked for in the instantiation (Trainer<Net>::Train()),
// where the member is Trainer<Net>'s, not in the template's pattern.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};

template <class Model> class Trainer {
public:
  void Train(int epochs);

private:
  std::shared_ptr<Model> model = std::make_shared<Model>();
  std::shared_ptr<Model> teacher = std::make_shared<Model>();
};

template <class Model> void Trainer<Model>::Train(int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({8, 16});
      optimizer.zero_grad();
      auto prediction = model->forward(x);
      auto soft = teacher->forward(x);
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'teacher' is a network whose parameters are in no optimizer [torch-frozen-net-grad]
      auto loss = torch::mse_loss(prediction, soft.detach());
      loss.backward();
      optimizer.step();
    }
  }
}

int main() {
  Trainer<Net> trainer;
  trainer.Train(3);
  return 0;
}
