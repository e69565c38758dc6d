"""The benchmark suite's peers, measured in the same run as torch-pjrt: the same workloads in
PyTorch (CPU, the same thread count) and the machine's limits (sgemm through numpy's BLAS, a large
copy for memory bandwidth). Inputs come from the formula in benchmarks/suite/data.mjs.
Prints one JSON object on stdout. Usage: python peer.py '{"threads": 2, "matmulSizes": [256]}'"""
import json
import statistics
import sys
import time

import numpy as np

config = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
threads = int(config.get("threads", 2))


def det_values(n, seed, scale=1.0):
    i = np.arange(n, dtype=np.int64)
    return ((((i * 7919 + seed * 104729) % 10007) / 10007 - 0.5) * scale).astype(np.float32)


def time_it(once, warmup=1, min_reps=5, min_s=1.0, max_s=20.0):
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


def big(n):
    return dict(warmup=0, min_reps=1, min_s=0) if n >= 4096 else {}


def limits(sizes):
    out = {}
    for n in sizes:
        a = det_values(n * n, 1).reshape(n, n)
        b = det_values(n * n, 2).reshape(n, n)
        ms, reps = time_it(lambda: a @ b, **big(n))
        out[f"sgemm{n}"] = {"value": 2 * n**3 / (ms * 1e6), "unit": "GFLOP/s", "reps": reps}
    src = np.ones(64 * 1024 * 1024, dtype=np.float32)  # 256 MiB
    dst = np.empty_like(src)
    ms, reps = time_it(lambda: np.copyto(dst, src))
    out["copy"] = {"value": 2 * src.nbytes / (ms * 1e6), "unit": "GB/s (read + write)", "reps": reps}
    return out


def torch_workloads(torch, sizes):
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    out = {"version": torch.__version__}
    t = lambda values, *shape: torch.from_numpy(values).reshape(*shape)
    with torch.no_grad():
        for n in sizes:
            a, b = t(det_values(n * n, 1), n, n), t(det_values(n * n, 2), n, n)
            ms, reps = time_it(lambda: a @ b, **big(n))
            out[f"W1-{n}"] = {"value": 2 * n**3 / (ms * 1e6), "reps": reps}

        x4, y4 = torch.tensor([1.0, 2, 3, 4]), torch.tensor([10.0, 20, 30, 40])
        for _ in range(2000):
            torch.add(x4, y4)
        times = []
        for _ in range(10_000):
            t0 = time.perf_counter_ns()
            torch.add(x4, y4)
            times.append((time.perf_counter_ns() - t0) / 1000)
        out["W2"] = {"value": statistics.median(times), "reps": len(times)}

        x = t(det_values(1 << 20, 3, 8), 1 << 20)
        ms, reps = time_it(lambda: torch.tanh(x * 1.5 + 0.5) * torch.sigmoid(x) - x / 3)
        out["W3"] = {"value": ms, "reps": reps}

        def linear_params(in_f, out_f, seed):
            scale = 2 / in_f**0.5
            return t(det_values(out_f * in_f, seed, scale), out_f, in_f), t(det_values(out_f, seed + 1, 0.1), out_f)

        xm = t(det_values(128 * 784, 5), 128, 784)
        labels = torch.tensor([(i * 7) % 10 for i in range(128)])
        mlp = [linear_params(784, 512, 10), linear_params(512, 512, 20), linear_params(512, 10, 30)]

        def mlp_step():
            h = xm
            for i, (w, b) in enumerate(mlp):
                h = F.linear(h, w, b)
                if i < len(mlp) - 1:
                    h = torch.relu(h)
            return F.cross_entropy(h, labels)

        check = mlp_step().item()
        ms, reps = time_it(mlp_step)
        out["W4"] = {"value": 1000 / ms, "reps": reps, "check": check}

        D, H, L, HID, T, B = 256, 4, 4, 1024, 128, 8
        xt = t(det_values(B * T * D, 40), B, T, D)
        layers = [
            {"qkv": linear_params(D, 3 * D, 100 + 10 * l), "out": linear_params(D, D, 102 + 10 * l),
             "up": linear_params(D, HID, 104 + 10 * l), "down": linear_params(HID, D, 106 + 10 * l)}
            for l in range(L)
        ]
        heads = lambda z: z.reshape(B, T, H, D // H).transpose(1, 2)

        def forward():
            h = xt
            for p in layers:
                q, k, v = map(heads, F.linear(F.layer_norm(h, [D]), *p["qkv"]).split(D, dim=-1))
                a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, D)
                h = h + F.linear(a, *p["out"])
                h = h + F.linear(F.gelu(F.linear(F.layer_norm(h, [D]), *p["up"])), *p["down"])
            return h.sum()

        check = forward().item()
        ms, reps = time_it(forward)
        out["W5"] = {"value": ms, "reps": reps, "check": check}

        xs = t(det_values(4096 * 4096, 50), 4096, 4096)
        ms, reps = time_it(lambda: xs.sum(dim=-1))
        out["W6"] = {"value": 4096 * 4096 * 4 / (ms * 1e6), "reps": reps}
    return out


result = {"numpy": np.__version__, "limits": limits(config.get("matmulSizes", [256, 1024, 4096]))}
try:
    import torch
except ImportError as e:
    result["torch"] = {"error": f"PyTorch is not installed in this python ({e})"}
else:
    result["torch"] = torch_workloads(torch, config.get("matmulSizes", [256, 1024, 4096]))
print(json.dumps(result))
