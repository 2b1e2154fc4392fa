// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Clean: an fp16 program whose matmuls have misaligned-looking sizes, but no operand's shape is
// provable at the multiply (reassigned, resized, passed out by reference, a parameter, a module's
// weight, a runtime size, an unknown op), or the call is not a matrix multiply of libtorch.
#include <torch/torch.h>

namespace mylib {
// A user function that shares the name.
torch::Tensor matmul(const torch::Tensor &a, const torch::Tensor &b) { return a * b; }
struct Mat {
  Mat matmul(const Mat &) const { return *this; }
  Mat t() const { return *this; }
};
} // namespace mylib

int matmul(int a, int b) { return a * b; }

void reset(torch::Tensor &t) { t = torch::zeros({512, 512}, t.options()); }

// Operands are parameters: their shapes come from the callers.
torch::Tensor helper(const torch::Tensor &x, torch::Tensor w) { return torch::matmul(x, w); }

int main(int argc, char **) {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kHalf);
  torch::nn::Linear fc(512, 512);
  int64_t runtime = 100 + argc;
  for (int step = 0; step < 10; ++step) {
    // Reassigned between creation and use: the shape at the multiply is not the one it was made with.
    auto w = torch::randn({512, 300}, opts);
    w = torch::randn({512, 512}, opts);
    auto x = torch::randn({64, 512}, opts);
    auto y1 = torch::matmul(x, w);

    // Reassigned to a slice of itself.
    auto w2 = torch::randn({512, 300}, opts);
    w2 = w2.narrow(1, 0, 256);
    auto y2 = x.matmul(w2);

    // Declared first, assigned later: not tracked.
    torch::Tensor w3;
    w3 = torch::randn({512, 300}, opts);
    auto y3 = torch::mm(x, w3);

    // Resized in place, or passed by non-const reference.
    auto w4 = torch::randn({300, 512}, opts);
    w4.resize_({512, 512});
    auto w5 = torch::randn({512, 300}, opts);
    reset(w5);
    auto y4 = torch::matmul(w4, torch::randn({512, 512}, opts));
    auto y5 = torch::matmul(x, w5);

    // Resized by a libtorch free function, or reassigned through a reference.
    auto w6 = torch::randn({512, 300}, opts);
    torch::resize_as_(w6, x.t());
    auto w7 = torch::randn({512, 300}, opts);
    auto &alias = w7;
    alias = torch::randn({512, 512}, opts);
    auto y16 = torch::matmul(x, w6) + torch::matmul(x, w7);

    // A runtime size in either operand, or an operand of unknown shape.
    auto r = torch::randn({runtime, 512}, opts);
    auto y6 = torch::matmul(r, torch::randn({512, 300}, opts));
    auto y7 = torch::matmul(x.view({-1, 512}), torch::randn({512, 300}, opts));
    auto y8 = torch::linear(x, fc->weight);
    auto y9 = helper(torch::randn({64, 300}, opts), torch::randn({300, 300}, opts));

    // Matrix-vector products and dot products are not Tensor Core GEMMs.
    auto v = torch::randn({300}, opts);
    auto y10 = torch::matmul(torch::randn({100, 300}, opts), v);
    auto y11 = torch::matmul(v, v);

    // Aligned or small dimensions.
    auto y12 = torch::matmul(torch::randn({64, 512}, opts), torch::randn({512, 1000}, opts));
    auto y13 = torch::mm(torch::randn({4, 512}, opts), torch::randn({512, 3}, opts));

    // Not libtorch's matmul; einsum is not checked.
    auto y14 = mylib::matmul(torch::randn({100, 300}, opts), torch::randn({300, 100}, opts));
    mylib::Mat m;
    m.matmul(m.t());
    int n = matmul(300, 100);
    auto y15 = torch::einsum("ij,jk->ik", {torch::randn({100, 300}, opts), torch::randn({300, 100}, opts)});

    (y1 + y2 + y3 + y5 + y6 + y7 + y8 + y9 + y12).sum().backward();
    (void)y4; (void)y10; (void)y11; (void)y13; (void)y14; (void)y15; (void)y16; (void)n;
  }
}
