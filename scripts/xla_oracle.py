#!/usr/bin/env python3
"""Real XLA as an oracle for our StableHLO: compile and run modules on jaxlib's XLA CPU client.

Reads one JSON batch from stdin:
  {"cases": [{"name": str, "mlir": str,
              "inputs": [{"dtype": "float32", "shape": [2, 3], "data": "<base64 little-endian bytes>"}]}]}
Writes one JSON object to stdout:
  {"jaxlib": "0.10.2", "platform": "cpu",
   "results": [{"name": str, "ok": true, "outputs": [{"dtype", "shape", "data"}], "seconds": float}
               | {"name": str, "ok": false, "stage": "compile" | "run" | "input", "error": str}]}
A failing case is reported in its result and never stops the batch.

`--probe` prints the versions and exits 0 if jaxlib's CPU client works (used to decide skips).
Dtype names are torch-pjrt's: float32 float64 float16 bfloat16 int8 int16 int32 int64 uint8 uint16
uint32 uint64 bool.
"""

import base64
import json
import os
import sys
import time

# Only the CPU backend: never let jax probe libtpu (slow, noisy) or GPUs.
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def main() -> int:
    import numpy as np
    import ml_dtypes
    import jax
    import jax.extend.backend
    import jaxlib
    from jax._src.lib import xla_client as xc

    jax.config.update("jax_enable_x64", True)  # else device_put turns f64/i64 into 32-bit

    dtypes = {
        "float32": np.dtype(np.float32),
        "float64": np.dtype(np.float64),
        "float16": np.dtype(np.float16),
        "bfloat16": np.dtype(ml_dtypes.bfloat16),
        "int8": np.dtype(np.int8),
        "int16": np.dtype(np.int16),
        "int32": np.dtype(np.int32),
        "int64": np.dtype(np.int64),
        "uint8": np.dtype(np.uint8),
        "uint16": np.dtype(np.uint16),
        "uint32": np.dtype(np.uint32),
        "uint64": np.dtype(np.uint64),
        "bool": np.dtype(np.bool_),
    }
    names = {v: k for k, v in dtypes.items()}

    backend = jax.extend.backend.get_backend("cpu")
    device = backend.local_devices()[0]

    if "--probe" in sys.argv:
        print(json.dumps({"jaxlib": jaxlib.__version__, "jax": jax.__version__, "platform": backend.platform}))
        return 0

    batch = json.load(sys.stdin)

    def run_case(case):
        name = case.get("name", "?")
        t0 = time.perf_counter()
        stage = "input"
        try:
            args = []
            for inp in case.get("inputs", []):
                dt = dtypes[inp["dtype"]]
                raw = base64.b64decode(inp["data"])
                arr = np.frombuffer(raw, dtype=dt.newbyteorder("<")).astype(dt).reshape(inp["shape"])
                args.append(jax.device_put(arr, device))
            stage = "compile"
            options = xc.CompileOptions()
            options.num_replicas = 1
            options.num_partitions = 1
            exe = backend.compile_and_load(case["mlir"], xc.DeviceList((device,)), options)
            stage = "run"
            outs = exe.execute(args)
            outputs = []
            for o in outs:
                a = np.asarray(o)
                if a.dtype not in names:
                    raise RuntimeError(f"output dtype {a.dtype} has no torch-pjrt name")
                outputs.append(
                    {
                        "dtype": names[a.dtype],
                        "shape": list(a.shape),
                        "data": base64.b64encode(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()).decode(),
                    }
                )
            return {"name": name, "ok": True, "outputs": outputs, "seconds": time.perf_counter() - t0}
        except Exception as e:  # noqa: BLE001 - every failure is reported per case
            return {"name": name, "ok": False, "stage": stage, "error": f"{type(e).__name__}: {e}"}

    # XLA compiles release the GIL: a few threads overlap them. Env XLA_ORACLE_THREADS (default 2).
    threads = max(1, int(os.environ.get("XLA_ORACLE_THREADS", "2")))
    if threads == 1:
        results = [run_case(c) for c in batch["cases"]]
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = list(pool.map(run_case, batch["cases"]))

    json.dump({"jaxlib": jaxlib.__version__, "platform": backend.platform, "results": results}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
