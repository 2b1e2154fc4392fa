// torch-frozen-net-grad: knowledge distillation with a pretrained teacher whose parameters are in
// no optimizer, run on the data loader's batch with autograd on. The batch needs no gradient, so
// NoGradGuard (nothing recorded) is right, as is requires_grad_(false) on its parameters.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64));
  torch::nn::Sequential teacher(torch::nn::Flatten(), torch::nn::Linear(784, 512), torch::nn::ReLU(),
                                torch::nn::Linear(512, 10));
  torch::load(teacher, "teacher.pt");
  teacher->to(device);
  torch::nn::Sequential student(torch::nn::Flatten(), torch::nn::Linear(784, 10));
  student->to(device);
  torch::optim::SGD opt(student->parameters(), 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.to(device);
      auto soft = torch::softmax(teacher->forward(x), 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'teacher' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; its input needs no gradient, so run it under torch::NoGradGuard (nothing recorded), or set requires_grad_(false) on its parameters once (`for (auto& p : teacher->parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
      auto loss = torch::kl_div(torch::log_softmax(student->forward(x), 1), soft, at::Reduction::Mean);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}
