// torch-cudnn-benchmark: the inference program never reaches shared_model.h's fit(): it does not
// train, so the auto-tuner advice for training programs does not apply (accdoa-libtorch's
// infer_main.cpp was told it "trains (model.h:149)"). Quiet in both modes.
#include "shared_model.h"

bool next_frame(at::Tensor &frame);

int main() {
  at::Device device(at::kCUDA);
  Net net;
  at::Tensor frame = torch::zeros({1, 1, 64, 64}, at::TensorOptions(device));
  while (next_frame(frame))
    net.infer(frame);
  return 0;
}
