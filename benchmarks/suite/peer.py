"""The benchmark suite's peer, a server that benchmarks/run.mjs starts once: the same workloads in
PyTorch (CPU, the same thread count) and the machine's limits (sgemm through numpy's BLAS, a large
copy for memory bandwidth), one measurement per request. Inputs come from the formula in
benchmarks/suite/data.mjs.

Usage: python peer.py '{"threads": 2, "minMs": 600}'. It first writes one JSON line with the
versions and the kernel numpy's OpenBLAS chose for this process (OPENBLAS_CORETYPE decides it when set), then reads one JSON request a line on stdin, e.g. {"workload": "W5"}, {"workload": "W1",
"n": 1024}, {"limit": "sgemm", "n": 1024}, {"limit": "copy"}, {"limit": "memcpy"}, {"peak": "W4", "steps": 50} (benchmarks/peak-memory.mjs), and answers each with one JSON line
({"value": ..., "reps": ...} and W4/W5/W7's "check", or {"error": ...}). It exits on EOF."""
import ctypes
import functools
import gc
import glob
import json
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

config = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
torch.set_num_threads(int(config.get("threads", 2)))
torch.set_grad_enabled(False)
MIN_S = config.get("minMs", 1000) / 1000


@functools.cache  # the same inputs come back every round; nothing writes into them
def det_values(n, seed, scale=1.0):
    i = np.arange(n, dtype=np.int64)
    return ((((i * 7919 + seed * 104729) % 10007) / 10007 - 0.5) * scale).astype(np.float32)


def t(n, seed, *shape, scale=1.0):
    return torch.from_numpy(det_values(n, seed, scale)).reshape(*shape)


def time_it(once, warmup=1, min_reps=5, min_s=MIN_S, max_s=20.0):
    """Median ms of `once` after `warmup` calls, over at least `min_reps` calls and `min_s` seconds."""
    for _ in range(warmup):
        once()
    times = []
    start = time.perf_counter()
    while len(times) < min_reps or time.perf_counter() - start < min_s:
        t0 = time.perf_counter()
        once()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > max_s:
            break
    return statistics.median(times) * 1000, len(times)


def gflops(n, once):
    """GFLOP/s of `once`, an n×n by n×n matmul; the 4096³ one is a single rep."""
    ms, reps = time_it(once, **(dict(warmup=0, min_reps=1, min_s=0) if n >= 4096 else {}))
    return {"value": 2 * n**3 / (ms * 1e6), "reps": reps}


def w1(n):
    a, b = t(n * n, 1, n, n), t(n * n, 2, n, n)
    return gflops(n, lambda: a @ b)


def w2():
    x, y = torch.tensor([1.0, 2, 3, 4]), torch.tensor([10.0, 20, 30, 40])
    for _ in range(2000):
        torch.add(x, y)
    times = []
    for _ in range(10_000):
        t0 = time.perf_counter_ns()
        torch.add(x, y)
        times.append((time.perf_counter_ns() - t0) / 1000)
    return {"value": statistics.median(times), "reps": len(times)}


def w2b():
    x, y = torch.tensor([1.0, 2, 3, 4]), torch.tensor([10.0, 20, 30, 40])
    for _ in range(2000):
        torch.add(x, y)
    n, per_add = 10_000, []
    for _ in range(7):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            torch.add(x, y)
        per_add.append((time.perf_counter_ns() - t0) / 1000 / n)
    return {"value": statistics.median(per_add), "reps": 7 * n}


def w3():
    x = t(1 << 20, 3, 1 << 20, scale=8)
    ms, reps = time_it(lambda: torch.tanh(x * 1.5 + 0.5) * torch.sigmoid(x) - x / 3)
    return {"value": ms, "reps": reps}


def linear_params(in_f, out_f, seed):
    return t(out_f * in_f, seed, out_f, in_f, scale=2 / in_f**0.5), t(out_f, seed + 1, out_f, scale=0.1)


def w4_training():
    """W4's MLP, batch and step (forward, cross-entropy, backward, SGD); the step returns the loss."""
    x = t(128 * 784, 5, 128, 784)
    labels = torch.tensor([(i * 7) % 10 for i in range(128)])
    # copies: the inputs are cached across rounds, and the step updates the parameters
    layers = [tuple(p.clone().requires_grad_() for p in linear_params(784, 512, 10)),
              tuple(p.clone().requires_grad_() for p in linear_params(512, 512, 20)),
              tuple(p.clone().requires_grad_() for p in linear_params(512, 10, 30))]
    params = [p for layer in layers for p in layer]

    def step():
        with torch.enable_grad():
            h = x
            for i, (w, b) in enumerate(layers):
                h = F.linear(h, w, b)
                if i < len(layers) - 1:
                    h = torch.relu(h)
            loss = F.cross_entropy(h, labels)
            loss.backward()
        with torch.no_grad():
            for p in params:
                p.sub_(p.grad * 0.01)
                p.grad = None
        return loss

    return step, params, None


def w4():
    step, _, _ = w4_training()
    check = step().item()
    ms, reps = time_it(step)
    return {"value": 1000 / ms, "reps": reps, "check": check}


def transformer_model():
    """W5's model: the forward (the last layer's hidden states) and its parameters (copies: W7 updates them)."""
    D, H, L, HID, T, B = 256, 4, 4, 1024, 128, 8
    x = t(B * T * D, 40, B, T, D)
    shapes = {"qkv": (D, 3 * D, 100), "out": (D, D, 102), "up": (D, HID, 104), "down": (HID, D, 106)}
    layers = [{name: tuple(p.clone() for p in linear_params(i, o, seed + 10 * l)) for name, (i, o, seed) in shapes.items()} for l in range(L)]
    heads = lambda z: z.reshape(B, T, H, D // H).transpose(1, 2)

    def forward():
        h = x
        for p in layers:
            q, k, v = map(heads, F.linear(F.layer_norm(h, [D]), *p["qkv"]).split(D, dim=-1))
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, D)
            h = h + F.linear(a, *p["out"])
            h = h + F.linear(F.gelu(F.linear(F.layer_norm(h, [D]), *p["up"])), *p["down"])
        return h

    return forward, [p for layer in layers for lin in layer.values() for p in lin]


def w5():
    forward, _ = transformer_model()
    check = forward().sum().item()
    ms, reps = time_it(lambda: forward().sum())
    return {"value": ms, "reps": reps, "check": check}


def w7_training():
    """W5's model, its AdamW and W7's step (forward, mean-square loss, backward, AdamW)."""
    forward, params = transformer_model()
    for p in params:
        p.requires_grad_()
    optimizer = torch.optim.AdamW(params, lr=1e-3, foreach=False)

    def step():
        with torch.enable_grad():
            loss = forward().pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
        optimizer.step()
        return loss

    return step, params, optimizer


def w7():
    step, _, _ = w7_training()
    check = step().item()
    ms, reps = time_it(step)
    return {"value": 1000 / ms, "reps": reps, "check": check}


def compiled(training):
    """A training step under torch.compile (inductor; backward and the optimizer are separate graphs
    there): steps/s, the first step's loss and that call's time."""
    step, _, _ = training()
    fast = torch.compile(step)
    start = time.perf_counter()
    check = fast().item()
    first_ms = (time.perf_counter() - start) * 1000
    ms, reps = time_it(fast)
    return {"value": 1000 / ms, "reps": reps, "check": check, "firstMs": first_ms}


def memory_kb():
    """(VmRSS, VmHWM) of this process in KiB."""
    with open("/proc/self/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def peak(workload, steps, warmup=3):
    """benchmarks/peak-memory.mjs's measurement, in a peer of its own: resident memory (KiB) with the
    runtime started, with the training built, after `warmup` steps (the base; the high-water mark is
    reset there), and the high-water marks of the warm-up and of the `steps` steps after the base."""
    torch.ones(64, 64) @ torch.ones(64, 64)  # the runtime up, as the other side starts its own
    gc.collect()
    start_kb, _ = memory_kb()
    step, params, optimizer = TRAININGS[workload]()
    gc.collect()
    built_kb, _ = memory_kb()
    check = step().item()
    for _ in range(warmup - 1):
        step()
    gc.collect()
    _, warm_peak_kb = memory_kb()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS
    base_kb, _ = memory_kb()
    for _ in range(steps):
        step()
    end_kb, peak_kb = memory_kb()
    nbytes = lambda tensors: sum(v.numel() * v.element_size() for v in tensors)
    state = [v for s in optimizer.state.values() for v in s.values() if torch.is_tensor(v)] if optimizer else []
    return {"startKb": start_kb, "builtKb": built_kb, "warmPeakKb": warm_peak_kb, "baseKb": base_kb, "peakKb": peak_kb,
            "endKb": end_kb, "steps": steps, "check": check, "paramBytes": nbytes(params),
            "gradBytes": nbytes(p.grad for p in params if p.grad is not None), "optimizerBytes": nbytes(state)}


def w6():
    x = t(4096 * 4096, 50, 4096, 4096)
    ms, reps = time_it(lambda: x.sum(dim=-1))
    return {"value": x.numel() * 4 / (ms * 1e6), "reps": reps}


def h1():
    """torch.tensor of a 64 MB array (a copy) and a copy back out: GB/s copied, as H1 counts ours."""
    n = 16 << 20
    a = det_values(n, 60)

    def once():
        return torch.tensor(a).numpy().copy()

    if not np.array_equal(once(), a):
        raise ValueError("H1 round trip changed the values")
    ms, reps = time_it(once)
    return {"value": 2 * a.nbytes / (ms * 1e6), "reps": reps}


def h2():
    """A 4 MB result copied out to a new array: GB/s."""
    y = torch.from_numpy(det_values(1 << 20, 61)) * 2
    ms, reps = time_it(lambda: y.numpy().copy())
    return {"value": y.numel() * 4 / (ms * 1e6), "reps": reps}


def sgemm(n):
    a, b = det_values(n * n, 1).reshape(n, n), det_values(n * n, 2).reshape(n, n)
    return {**gflops(n, lambda: a @ b), "unit": "GFLOP/s"}


def copy():
    src = np.ones(64 * 1024 * 1024, dtype=np.float32)  # 256 MiB
    dst = np.empty_like(src)
    ms, reps = time_it(lambda: np.copyto(dst, src))
    return {"value": 2 * src.nbytes / (ms * 1e6), "unit": "GB/s (read + write)", "reps": reps}


def openblas_core():
    """The name of the kernel set numpy's bundled OpenBLAS runs in this process."""
    for path in glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*.so*")):
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return fn().decode()
    return "unknown (no bundled OpenBLAS found)"


def memcpy():
    """A 64 MB copy into an array made for it each time, as a read makes one: GB/s copied."""
    src = np.ones(16 << 20, dtype=np.float32)
    ms, reps = time_it(lambda: src.copy())
    return {"value": src.nbytes / (ms * 1e6), "unit": "GB/s copied, into new memory", "reps": reps}


TRAININGS = {"W4": w4_training, "W7": w7_training}
WORKLOADS = {"W1": w1, "W2": w2, "W2b": w2b, "W3": w3, "W4": w4, "W5": w5, "W6": w6, "W7": w7, "H1": h1, "H2": h2,
             "W4c": lambda: compiled(w4_training), "W7c": lambda: compiled(w7_training)}
LIMITS = {"sgemm": sgemm, "copy": copy, "memcpy": memcpy}


def answer(request):
    try:
        if "peak" in request:
            return peak(request.pop("peak"), **request)
        fn = WORKLOADS[request.pop("workload")] if "workload" in request else LIMITS[request.pop("limit")]
        torch.set_flush_denormal(request.pop("flushDenormal", False))
        return fn(**request)
    except Exception as e:  # one bad request must not end the session
        return {"error": f"{type(e).__name__}: {e}"}
    finally:
        torch.set_flush_denormal(False)


print(json.dumps({"numpy": np.__version__, "torch": torch.__version__, "openblas": openblas_core()}), flush=True)
for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))), flush=True)
