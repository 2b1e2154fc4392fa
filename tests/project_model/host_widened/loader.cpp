#include "loader.h"

at::Tensor imageToTensor(const Image &img) {
  at::Tensor t = torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kU8);
  return (t.toType(torch::kFloat32) / 255.0);
}

at::Tensor readFloat(const Image &img) { return torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kFloat); }

void Camera::load(const Image &img) {
  image = imageToTensor(img);
  image = image.index({0, 1});
  depth = readFloat(img);
  mixed = imageToTensor(img);
  plain = imageToTensor(img);
  plain = torch::rand({4, 4});
}

at::Tensor Camera::getImage(int scale) {
  if (scale <= 1)
    return image;
  if (pyramids.find(scale) != pyramids.end())
    return pyramids[scale];
  Image small;
  at::Tensor t = imageToTensor(small);
  pyramids[scale] = t;
  return t;
}

at::Tensor Camera::getMaybe(int i) {
  if (i > 0)
    return image;
  return readAny(i);
}

at::Tensor lossOf(at::Tensor &gt) { return gt.mean(); }

void fill(at::Tensor &t) { t = torch::rand({4, 4}); }
