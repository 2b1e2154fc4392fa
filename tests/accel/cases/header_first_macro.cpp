// macro_header.h defines a macro before it includes torch.h: exact with the PCH only as libtorch never reads it.
#include "macro_header.h"

int main() {
  auto t = torch::ones({1}, torch::kCUDA);
  float s = 0;
  for (int i = 0; i < 3; ++i) {
    s += scaled(t);
    s += t.sum().item<float>(); // a finding in this file too (test_plugin_finds_something)
  }
  return s > 0;
}
