// macro_header.h defines a macro before it includes torch.h: no PCH can be loaded in front exactly.
#include "macro_header.h"

int main() {
  auto t = torch::ones({1}, torch::kCUDA);
  float s = 0;
  for (int i = 0; i < 3; ++i)
    s += scaled(t);
  return s > 0;
}
