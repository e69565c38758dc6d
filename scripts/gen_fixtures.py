#!/usr/bin/env python3
"""Generates the conformance fixtures in test/fixtures/ with PyTorch as the oracle.

    .venv/bin/python scripts/gen_fixtures.py            # all families
    .venv/bin/python scripts/gen_fixtures.py pointwise  # some families

PyTorch is used only to compute outputs: every case below is our own, written as a declarative table
(scripts/fixtures/*.py). Inputs are seeded, so a rerun gives the same files byte for byte.

Each family becomes test/fixtures/<family>.json:

    { "family", "torch": "<version>", "cases": [ {
        "id":       unique "<op>/<what>/<dtype>" string,
        "op":       PyTorch spelling ("add", "nn.functional.gelu", "Tensor.view"),
        "name":     our camelCase name, a path in the torch-pjrt module ("add", "nn.functional.gelu"),
        "method":   our method name when PyTorch has it as a Tensor method (self = args[0]), else absent,
        "inputs":   [ { "dtype", "shape", "values" (flat, row-major) } ],
        "args":     positional arguments: literals, {"$t": i} for inputs[i], {"$f": "nan"|"inf"|"-inf"}, lists,
        "kwargs":   the trailing options object (camelCase keys), same encoding,
        "expected": { "tensor": T } | { "list": [T…] } | { "fields": { name: T } } | { "value": literal }
                    | { "error": "ShapeError" | "DTypeError" | "ArgumentError" | "TorchError", "message" },
        "rtol", "atol",
        "grad":     optional, for float32/float64 cases of differentiable ops: PyTorch's vector-Jacobian
                    product, { "cotangents": [T…] (one per float output, seeded), "inputs": [T | null…] } } ] }

Values: floats are JSON numbers (float32/16/bf16 in their shortest round-trip float32 form), with
"nan", "inf", "-inf" as strings; int64 as numbers when |v| <= 2**53, else decimal strings; bool as
true/false.

Argument convention (DESIGN §3): an argument that PyTorch requires is positional, an optional one
goes in the options object — except where the op library already takes it positionally (squeeze's
dim, cat/stack's dim), which the table says per op.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in scripts/fixtures/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# PyTorch's AVX-512 kernels differ from its AVX2 ones in a few last bits and special values (gelu(inf),
# logit's gradient at -0): the fixtures are PyTorch's AVX2 results on every machine.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

import torch  # noqa: E402
import warnings  # noqa: E402

# var/std with correction >= n are cases on purpose (PyTorch gives inf/nan and warns)
warnings.filterwarnings("ignore", message=".*degrees of freedom.*")

from fixtures import common  # noqa: E402
from fixtures import creation, pointwise, reduction, shape, linalg, indexing, functional, special, pooling  # noqa: E402

FAMILIES = {
    "pointwise": pointwise.cases,
    "reduction": reduction.cases,
    "shape": shape.cases,
    "linalg": linalg.cases,
    "indexing": indexing.cases,
    "functional": functional.cases,
    "creation": creation.cases,
    "special": special.cases,
    "pooling": pooling.cases,
}

OUT_DIR = os.path.join(HERE, "..", "test", "fixtures")


def main(argv: list[str]) -> int:
    wanted = argv[1:] or list(FAMILIES)
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.set_num_threads(1)  # deterministic reductions
    t0 = time.time()
    total_bytes = 0
    for family in wanted:
        common.reset_seed(family)
        builder = common.Builder(family)
        FAMILIES[family](builder)
        doc = {"family": family, "torch": torch.__version__, "cases": builder.cases}
        text = json.dumps(doc, separators=(",", ":"), allow_nan=False)
        # one case per line keeps diffs readable
        text = text.replace(',{"id":', ',\n{"id":')
        path = os.path.join(OUT_DIR, f"{family}.json")
        with open(path, "w") as f:
            f.write(text + "\n")
        total_bytes += len(text) + 1
        print(f"{family}: {len(builder.cases)} cases, {len(text) / 1024:.0f} KiB; dropped {builder.dropped_summary()}")
    print(f"total {total_bytes / 1024:.0f} KiB in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
