#include "boxes.h"

at::Tensor decodeOnHost(const at::Tensor &deltas) { return deltas.detach().cpu(); }

at::Tensor decodeOnDevice(const at::Tensor &deltas) { return deltas.cuda(); }

AnchorCache::AnchorCache() : grid_(torch::zeros({64, 4})) {}

at::Tensor AnchorCache::grid() const { return grid_; }

void ScoreBoard::record(const at::Tensor &s) { last_ = s.cuda(); }

at::Tensor ScoreBoard::best() const { return last_; }
