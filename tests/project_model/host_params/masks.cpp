#include "masks.h"

int Masks::width(const at::Tensor &box) { return box[2].item<int>() - box[0].item<int>(); }

int Masks::height(const at::Tensor &box) { return box[3].item<int>() - box[1].item<int>(); }

int Masks::left(at::Tensor box) {
  box = box.cuda();
  return box[0].item<int>();
}

int Masks::top(at::Tensor box) { return box[1].item<int>(); }

float Masks::score(const at::Tensor &s) { return s.item<float>(); }
