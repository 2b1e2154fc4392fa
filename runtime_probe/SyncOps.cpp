// RecordFunction::inputs() asserts `inputs_valid_` in builds without NDEBUG, a flag that only a
// libtorch built without NDEBUG maintains: against a release libtorch (Debian's, the wheels) the
// assert fails on every call. Only this file reads inputs; compile its copy of the header without it.
#ifndef NDEBUG
#define NDEBUG
#endif
#include "SyncOps.h"

#include <ATen/Context.h>

#include <cstring>

namespace probe {

namespace {

bool is(const char *Name, const char *Want) { return std::strcmp(Name, Want) == 0; }

/// A bool or uint8 tensor among aten::index / index_put_'s indices: ATen turns it into
/// indices with nonzero() (expandTensors in ATen/native/IndexingUtils.h), whose output size
/// needs the number of true elements on the host.
bool hasMaskIndex(const at::RecordFunction &Fn) {
  auto In = Fn.inputs();
  if (In.size() < 2 || !In[1].isList())
    return false;
  for (const c10::IValue &I : In[1].toListRef())
    if (I.isTensor()) {
      c10::ScalarType T = I.toTensor().scalar_type();
      if (T == c10::kBool || T == c10::kByte)
        return true;
    }
  return false;
}

} // namespace

OpClass classifyOp(const at::RecordFunction &Fn, bool TopLevel) {
  OpClass C;
  const char *N = Fn.name();
  if (!N)
    return C;
  auto rule = [&](const char *R) {
    C.sync = true;
    C.rule = R;
    return C;
  };
  if (Fn.scope() == at::RecordScope::USER_SCOPE)
    return is(N, kExplicitSyncScope) ? rule("explicit synchronize") : C;
  if (std::strncmp(N, "aten::", 6) != 0)
    return C;
  N += 6;
  // Scalar reads: item(), and what is built on it.
  if (is(N, "_local_scalar_dense"))
    return rule("item");
  if (is(N, "is_nonzero"))
    return rule("is_nonzero");
  if (is(N, "equal"))
    return rule("equal");
  if (is(N, "allclose"))
    return rule("allclose");
  // Data-dependent output sizes.
  if (is(N, "nonzero") || is(N, "argwhere") || is(N, "nonzero_numpy"))
    return rule("nonzero");
  if (is(N, "masked_select"))
    return rule("masked_select");
  if (is(N, "_unique") || is(N, "_unique2") || is(N, "unique_dim") || is(N, "unique_consecutive") ||
      is(N, "unique_dim_consecutive"))
    return rule("unique");
  if ((is(N, "index") || is(N, "index_put_") || is(N, "index_put") || is(N, "_index_put_impl_")) &&
      hasMaskIndex(Fn))
    return rule("bool-index");
  // Transfers that name a device. Inputs (native_functions.yaml):
  //   to.device(Tensor self, Device device, ScalarType dtype, bool non_blocking, bool copy, MemoryFormat?)
  //   to.dtype_layout(Tensor self, ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory,
  //                   bool non_blocking, bool copy, MemoryFormat?)
  //   _to_copy(Tensor self, ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory,
  //            bool non_blocking, MemoryFormat?)
  if (TopLevel && (is(N, "to") || is(N, "_to_copy"))) {
    auto In = Fn.inputs();
    size_t DeviceAt = 0, NonBlockingAt = 0;
    if (In.size() >= 4 && In[1].isDevice()) {
      DeviceAt = 1;
      NonBlockingAt = 3;
    } else if (In.size() >= 6 && In[3].isDevice()) {
      DeviceAt = 3;
      NonBlockingAt = 5;
    }
    if (!DeviceAt || !In[0].isTensor())
      return C;
    // Same device: no copy. Where both are the CPU, a CPU-only run stands in for a CUDA program
    // whose `device` is the CPU here: counted as requested (docs/probe/README.md), unless this
    // process has CUDA, where a CPU-to-CPU to() is just that.
    c10::Device From = In[0].toTensor().device(), To = In[DeviceAt].toDevice();
    static const bool HasCuda = at::globalContext().hasCUDA();
    if (From.type() == To.type() && (!From.is_cpu() || HasCuda) &&
        (!To.has_index() || !From.has_index() || From.index() == To.index()))
      return C;
    C.transfer = true;
    {
      const at::Tensor &Src = In[0].toTensor();
      size_t DtypeAt = DeviceAt == 1 ? 2 : 1; // to.device: dtype after the device; else the first option
      c10::ScalarType Dst = Src.scalar_type();
      if (In.size() > DtypeAt && In[DtypeAt].isInt())
        Dst = static_cast<c10::ScalarType>(In[DtypeAt].toInt());
      C.bytes = Src.numel() * static_cast<int64_t>(c10::elementSize(Dst));
    }
    C.blocking = !(In[NonBlockingAt].isBool() && In[NonBlockingAt].toBool());
    if (C.blocking) {
      C.sync = true;
      C.rule = "blocking copy";
    }
    return C;
  }
  return C;
}

} // namespace probe
