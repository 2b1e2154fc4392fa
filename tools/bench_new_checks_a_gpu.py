#!/usr/bin/env python3
"""GPU measurements for four checks of issue 25 (torch-autograd-history, torch-multiple-backward,
torch-discarded-conversion, torch-optimizer-in-loop) with PyTorch's Python API on one CUDA device: the
same operators as the C++ probe cases in runtime_probe/cases/ (libtorch's dispatcher runs the same
kernels), for machines without a CUDA libtorch C++ build. Prints one JSON object.
Usage: python3 tools/bench_new_checks_a_gpu.py"""
import json, time
import torch
dev = torch.device("cuda")
torch.manual_seed(0)
B, D = 256, 1024
out = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__}
def mlp(layers=3):
    m = []
    for _ in range(layers - 1):
        m += [torch.nn.Linear(D, D), torch.nn.ReLU()]
    return torch.nn.Sequential(*m, torch.nn.Linear(D, 10)).to(dev)
def timed(fn, steps=200, warm=10):
    for _ in range(warm): fn()
    torch.cuda.synchronize(); t0 = time.perf_counter()
    for _ in range(steps): fn()
    torch.cuda.synchronize(); return round((time.perf_counter() - t0) / steps * 1e3, 4)
x = torch.randn(B, D, device=dev); y = torch.randint(0, 10, (B,), device=dev)
def ce(o): return torch.nn.functional.cross_entropy(o, y)
# torch-autograd-history: bytes still allocated after N steps (running += loss vs += loss.detach())
r = {}
for v in ("before", "after"):
    net = mlp(); opt = torch.optim.SGD(net.parameters(), lr=0.01); run = torch.zeros((), device=dev)
    torch.cuda.synchronize(); base = torch.cuda.memory_allocated(); m = {}
    for s in range(1, 201):
        loss = ce(net(x)); opt.zero_grad(); loss.backward(); opt.step()
        run += loss if v == "before" else loss.detach()
        if s in (1, 10, 100, 200): torch.cuda.synchronize(); m[s] = torch.cuda.memory_allocated() - base
    r[v] = m; del net, opt, run, loss; torch.cuda.empty_cache()
out["history_total_bytes_held"] = r
r = {}
for v in ("before", "after"):
    net = mlp(); opt = torch.optim.SGD(net.parameters(), lr=0.01); hist = []
    torch.cuda.synchronize(); base = torch.cuda.memory_allocated(); m = {}
    for s in range(1, 101):
        o = net(x); loss = ce(o); opt.zero_grad(); loss.backward(); opt.step()
        hist.append(o if v == "before" else o.detach())
        if s in (1, 10, 100): torch.cuda.synchronize(); m[s] = torch.cuda.memory_allocated() - base
    r[v] = m; del net, opt, hist, o, loss; torch.cuda.empty_cache()
out["history_outputs_bytes_held"] = r
# torch-multiple-backward: shared trunk; ce.backward(retain_graph=True); mse.backward() vs (ce + mse).backward()
trunk = torch.nn.Sequential(torch.nn.Linear(D, D), torch.nn.ReLU(), torch.nn.Linear(D, D), torch.nn.ReLU()).to(dev)
cls, reg = torch.nn.Linear(D, 10).to(dev), torch.nn.Linear(D, 1).to(dev)
opt = torch.optim.SGD(list(trunk.parameters()) + list(cls.parameters()) + list(reg.parameters()), lr=0.01)
t = torch.randn(B, 1, device=dev)
def mb(before):
    h = trunk(x); a = ce(cls(h)); b = torch.nn.functional.mse_loss(reg(h), t); opt.zero_grad()
    if before: a.backward(retain_graph=True); b.backward()
    else: (a + b).backward()
    opt.step()
out["multiple_backward_ms_per_step"] = {k: timed(lambda: mb(k.startswith("before"))) for k in ("before", "after", "before2", "after2")}
# torch-discarded-conversion: a pinned host batch; before: xh.to(dev) discarded, then the copy that is used
xh = torch.randn(B, D).pin_memory(); net = mlp(); opt = torch.optim.SGD(net.parameters(), lr=0.01)
def dc(before):
    if before: xh.to(dev, non_blocking=True)
    loss = ce(net(xh.to(dev, non_blocking=True))); opt.zero_grad(); loss.backward(); opt.step()
out["discarded_conversion_ms_per_step"] = {k: timed(lambda: dc(k.startswith("before"))) for k in ("before", "after", "before2", "after2")}
# torch-optimizer-in-loop: Adam per epoch of 4 steps vs once
net = mlp()
def epoch(o):
    for _ in range(4):
        loss = ce(net(x)); o.zero_grad(); loss.backward(); o.step()
once = torch.optim.Adam(net.parameters(), lr=1e-3)
out["optimizer_in_loop_ms_per_epoch"] = {"before": timed(lambda: epoch(torch.optim.Adam(net.parameters(), lr=1e-3)), 50),
                                         "after": timed(lambda: epoch(once), 50)}
out["optimizer_in_loop_state_bytes_per_epoch"] = 2 * 4 * sum(p.numel() for p in net.parameters())
print(json.dumps(out))
