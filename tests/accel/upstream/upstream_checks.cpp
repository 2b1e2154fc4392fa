// The plugin's user-code walk (core/TraversalScope.h) also applies to upstream clang-tidy
// checks loaded in the same run: their findings in user code must be those of the whole walk.
#include <torch/torch.h>
#include <string>

int main() {
  auto x = torch::randn({4}).cuda();
  float t = 0;
  for (int i = 0; i < 3; ++i)
    t += x.sum().item<float>();
  std::string s = "abc";
  if (s.find("b") == 0) // performance-faster-string-find
    t += 1;
  int *p = new int(3); // cppcoreguidelines-owning-memory
  int a[3] = {1, 2, 3}; // misc-const-correctness
  return (int)t + *p + a[0];
}
