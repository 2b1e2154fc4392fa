#include "datasets.h"

torch::data::Example<> PixelSet::get(size_t index) {
  auto raw = torch::from_blob(store_.images[index], {32, 32, 3}, torch::kByte);
  auto label = torch::from_blob(store_.labels[index], {1}, torch::kByte);
  return {raw.permute({2, 0, 1}).to(torch::kFloat).div(255), label.to(torch::kLong)};
}
std::optional<size_t> PixelSet::size() const { return 10; }

torch::data::Example<> StepSet::get(size_t index) {
  auto img = torch::from_blob(store_.images[index], {32, 32, 3}, torch::kByte).clone();
  img = img.permute({2, 0, 1});
  img = img.to(torch::kFloat32);
  img = img / 255;
  img = (img - img.mean()) / img.std();
  torch::Tensor target = torch::zeros({7, 7, 5});
  return {img, target};
}
std::optional<size_t> StepSet::size() const { return 10; }

torch::data::Example<> DepthSet::get(size_t index) {
  auto depth = torch::from_blob(store_.depths[index], {32, 32}, torch::kFloat);
  return {depth.clone(), torch::zeros({1}, torch::kLong)};
}
std::optional<size_t> DepthSet::size() const { return 10; }

torch::data::Example<> MixedSet::get(size_t index) {
  if (index % 2)
    return {torch::from_blob(store_.depths[index], {32, 32}, torch::kFloat), torch::zeros({1})};
  auto raw = torch::from_blob(store_.images[index], {32, 32}, torch::kByte);
  return {raw.to(torch::kFloat), torch::zeros({1})};
}
std::optional<size_t> MixedSet::size() const { return 10; }
