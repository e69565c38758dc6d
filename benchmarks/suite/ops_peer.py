# PyTorch's side of benchmarks/ops.mjs: reads one JSON request per line ({"case": name, "minMs": …}),
# times that op eagerly on inputs of the same shapes and dtypes as ours, answers {"ms": median}.
import json
import sys
import time

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1024, 1024)
img = torch.randn(8, 32, 64, 64)
emb = torch.randn(4096, 256)
rows = torch.randint(0, 1024, (4096,))
cols = torch.randint(0, 1024, (1024, 1024))
src = torch.randn(4096, 256)
positive = torch.rand(1 << 20) + 0.1

CASES = {
    "half": lambda: x.half(),
    "bfloat16": lambda: x.bfloat16(),
    "log": lambda: positive.log(),
    "log1p": lambda: positive.log1p(),
    "sqrt": lambda: positive.sqrt(),
    "logSoftmax dim 0": lambda: x.log_softmax(0),
    "cumsum dim 1": lambda: x.cumsum(1),
    "topk 8 dim 1": lambda: x.topk(8, 1).values,
    "sort dim 1": lambda: x.sort(1).values,
    "indexAdd rows": lambda: torch.zeros(4096, 256).index_add(0, rows, src),
    "gather dim 1": lambda: x.gather(1, cols),
    "scatterAdd dim 1": lambda: torch.zeros(1024, 1024).scatter_add(1, cols, x),
    "avgPool2d 2": lambda: F.avg_pool2d(img, 2),
    "maxPool2d 2": lambda: F.max_pool2d(img, 2),
    "pad": lambda: F.pad(x, [0, 512]),
    "sum dim 0": lambda: x.sum(0),
}


def measure(fn, min_ms):
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < 5 or (time.perf_counter() - start) * 1e3 < min_ms:
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"ms": measure(CASES[request["case"]], request["minMs"])}), flush=True)
