/**
 * @file Checks one primitive's VJP rule against float64 central differences: the rule's cotangent
 * of each input must equal d⟨ct, f(x)⟩/dx computed numerically from the primitive's own forward.
 */
import { expect } from "vitest";
import * as torch from "../../src/index.js";
import * as e from "../../src/ops/emit.js";
import type { Prim, PrimParams } from "../../src/ops/prims.js";
import { runMany } from "../../src/ops/unit.js";
import type { VjpRule } from "../../src/ops/vjp_types.js";
import { bind, type Tracer } from "../../src/trace/tracer.js";

export interface VjpCheckOptions {
  /** Inputs to differentiate (default: every float64 input). */
  wrt?: number[];
  /** Finite-difference step (default 1e-6). */
  h?: number;
  /** Absolute and relative tolerance (default 1e-6). */
  tol?: number;
  /** Cotangent values per float output (default: a fixed pseudo-random sequence). */
  cts?: number[][];
}

const floatOut = (t: { dtype: string }): boolean => t.dtype === "float64" || t.dtype === "float32";

/**
 * Checks `rule` for `prim` applied to `inputs` (float64 for the inputs to differentiate; any
 * dtype for the others) with `params`. Disposes everything it makes.
 */
export function checkVjp<P extends Prim>(prim: P, rule: VjpRule<P>, inputs: torch.Tensor[], params: PrimParams[P], options: VjpCheckOptions = {}): void {
  const h = options.h ?? 1e-6;
  const tol = options.tol ?? 1e-6;
  const wrt = options.wrt ?? inputs.map((t, i) => (t.dtype === "float64" ? i : -1)).filter((i) => i >= 0);
  const key = `${prim}|${JSON.stringify(params, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}`;
  const forward = (xs: torch.Tensor[]) => runMany(`vjpCheck.${prim}`, xs, key, (ts) => bind(prim, ts, params));
  torch.tidy(() => {
    const outs = forward(inputs);
    const cts = outs.map((o, k) =>
      floatOut(o) ? torch.tensor(Float64Array.from({ length: o.numel() }, (_, i) => options.cts?.[k]?.[i] ?? Math.sin(1.7 * i + k + 0.3)), { shape: [...o.shape], dtype: o.dtype }) : undefined,
    );
    const given = cts.filter((c): c is torch.Tensor => c !== undefined);
    const n = inputs.length;
    const vjp = runMany(`vjpCheck.${prim}.vjp`, [...inputs, ...given], `${key}|${wrt.join(",")}`, (ts) => {
      const ins = ts.slice(0, n);
      const outTracers = bind(prim, ins, params);
      let k = n;
      const ctTracers = cts.map((c) => (c === undefined ? null : ts[k++]!));
      const got = rule({ inputs: ins, outputs: outTracers, cts: ctTracers, needed: ins.map((_, i) => wrt.includes(i)), params });
      return wrt.map((i): Tracer => got[i] ?? e.full(0, ins[i]!.dtype, ins[i]!.shape));
    });
    const ctValues = cts.map((c) => (c === undefined ? undefined : (c.dataSync() as Float64Array)));
    const objective = (xs: torch.Tensor[]): number =>
      torch.tidy(() => forward(xs).reduce((s, o, k) => {
        const c = ctValues[k];
        if (c === undefined) return s;
        const v = o.dataSync() as Float64Array;
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i]! * c[i]!;
        return s + dot;
      }, 0));
    wrt.forEach((i, j) => {
      const x = inputs[i]!;
      const base = Float64Array.from(x.dataSync() as Float64Array);
      const numeric = new Float64Array(base.length);
      for (let el = 0; el < base.length; el++) {
        const at = (delta: number): number => {
          const moved = Float64Array.from(base);
          moved[el] = base[el]! + delta;
          const xs = inputs.slice();
          xs[i] = torch.tensor(moved, { shape: [...x.shape], dtype: "float64" });
          return objective(xs);
        };
        numeric[el] = (at(h) - at(-h)) / (2 * h);
      }
      const analytic = vjp[j]!.dataSync() as Float64Array;
      expect(vjp[j]!.shape, `${prim}: cotangent ${i} shape`).toEqual(x.shape);
      for (let el = 0; el < base.length; el++) {
        const diff = Math.abs(analytic[el]! - numeric[el]!);
        if (!(diff <= tol + tol * Math.abs(numeric[el]!))) {
          throw new Error(`${prim}: cotangent of input ${i} at element ${el}: rule ${analytic[el]}, numeric ${numeric[el]} (params ${key})`);
        }
      }
    });
  });
}
