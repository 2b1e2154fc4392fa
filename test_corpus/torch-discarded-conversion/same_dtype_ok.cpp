// torch-discarded-conversion: `label.to(torch::kInt64);` as a statement, on a tensor that already
// is int64 (torch::full with an integer fill value takes its dtype, as does a factory given
// kLong): to() returns the tensor itself, nothing is copied, and the code after it already has
// the dtype it asked for. Dead code, not a lost conversion: not reported (a data set's get() in a
// siamese network's project, and a BERT data set's). A conversion to another dtype is reported:
// same_dtype_lookalikes.cpp.
#include <torch/torch.h>

struct Sample {
  torch::Tensor image, label;
};

struct Pairs : torch::data::datasets::Dataset<Pairs, Sample> {
  std::vector<int> labels;
  Sample get(size_t i) override {
    torch::Tensor image = torch::rand({3, 32, 32});
    torch::Tensor label = torch::full({1}, labels.at(i));
    label.to(torch::kInt64);
    torch::Tensor tokens = torch::zeros({8}, torch::kLong);
    tokens.to(torch::kLong);
    torch::Tensor flag = torch::full({1}, labels.at(i) > 0);
    flag.to(torch::kBool);
    return {image, label};
  }
  torch::optional<size_t> size() const override { return labels.size(); }
};
