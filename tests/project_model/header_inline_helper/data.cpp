#include "metrics.h"

// Loading: a loop that runs no step, so it makes nothing hot; log_metrics() here is the header's.
float checksum(const std::vector<at::Tensor> &images) {
  float sum = 0;
  for (const at::Tensor &image : images)
    sum += log_metrics(image);
  return sum;
}
