// torch-sync-print with a logging library that is not installed (plog): `PLOG_INFO << ...` is a
// stream macro, typed as a std::ostream by torchlint's synthesised declarations (issue 24), so a
// device tensor streamed into it on every step is reported as for std::cout. Metadata, scalars and
// strings streamed into it, and a tensor printed once per logging interval, are not.
// TORCHLINT-MISSING-HEADERS: plog/Log.h
#include <torch/torch.h>
#define PLOG_OMIT_LOG_DEFINES
#include <plog/Log.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 4);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8}, device);
    auto energies = net->forward(x).pow(2).mean(1);
    auto loss = energies.mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    PLOG_INFO << "step " << step << ": " << energies[0];
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: printing a tensor copies its values to the host [torch-sync-print]
    PLOG_DEBUG << "shape " << energies.sizes() << " step " << step;
    if (step % 50 == 0)
      PLOG_INFO << "energies " << energies;
  }
}
