// The training program of the same header: it calls fit(), so it trains and is reported.
#include "shared_model.h"

int main() {
  at::Device device(at::kCUDA);
  Net net;
  net.fit(device, 1000);
  return 0;
}
