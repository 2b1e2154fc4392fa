// torch-jit-inference-setup: a predictor class that loads its model in the constructor and calls
// eval(), but runs forward() without a guard in predict() (which returns a tensor: no fix-it) and
// is called in a serving loop without freezing the module.
#include <torch/torch.h>
#include <torch/script.h>
#include <string>
#include <vector>

class Predictor {
public:
  explicit Predictor(const std::string &path) {
    module_ = torch::jit::load(path);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: TorchScript module loaded here runs in a serving loop (forward() at line 18) without torch::jit::freeze [torch-jit-inference-setup]
    module_.eval();
  }
  torch::Tensor predict(const torch::Tensor &x) {
    std::vector<torch::jit::IValue> in{x};
    return module_.forward(in).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: TorchScript forward() runs with gradient recording on in a program that never trains [torch-jit-inference-setup]
  }

private:
  torch::jit::Module module_;
};

int main() {
  Predictor p("model.pt");
  for (int i = 0; i < 100; ++i) {
    auto y = p.predict(torch::randn({8, 16}));
    (void)y;
  }
}
