/**
 * @file One optimizer step over the parameters of a param group as ONE compiled executable: every
 * parameter, gradient and state tensor goes in, every updated value comes out, and the results are
 * rebound into the parameters and state tensors (so every reference sees the new values).
 *
 * The per-step numbers (lr, bias corrections, betas, momentum…) are inputs, not constants: one
 * small [params, scalars] table per compute dtype, each row a parameter's numbers rounded once to
 * that dtype on the host (as PyTorch casts a Python float scalar to the tensor's type). A scheduler
 * changing lr therefore never recompiles; only what changes the program (flags such as nesterov or
 * amsgrad, the parameters' shapes and dtypes) is part of the executable's signature.
 */
import { type DType, opmath } from "../dtype.js";
import { tensor } from "../ops/creation/tensor.js";
import * as e from "../ops/emit.js";
import { runMany } from "../ops/unit.js";
import { rebind, type Tensor } from "../tensor.js";
import { tracing } from "../trace/inline.js";
import type { Tracer } from "../trace/tracer.js";

/** What an optimizer's update of one parameter sees while its step is traced (all in the compute dtype). */
export interface ParamUpdate {
  param: Tracer;
  grad: Tracer;
  state: Readonly<Record<string, Tracer>>;
  /** This parameter's per-step number `name`, broadcast to its shape. */
  scalar(name: string): Tracer;
}

/** What the update returns: the new parameter and a new value for every state tensor it was given. */
export interface ParamResult {
  param: Tracer;
  state: Record<string, Tracer>;
}

export interface StepEntry {
  param: Tensor;
  grad: Tensor;
  /** The state tensors, in the order of `stateKeys`. */
  state: Tensor[];
}

/**
 * The host side of a step: `read` counts the step and gives each entry's per-step numbers (in the
 * order of `scalarNames`); torch.compile replays it at every call of a compiled function that steps.
 * `undo` takes one read back.
 */
export interface HostScalars {
  read(): readonly (readonly number[])[];
  undo(): void;
}

export interface GroupStep {
  /** The executable's name ("optim.Adam"). */
  op: string;
  /** Everything the update reads that is not an input (its flags). */
  statics: string;
  stateKeys: readonly string[];
  scalarNames: readonly string[];
  update: (u: ParamUpdate) => ParamResult;
}

const typedArrayOf = (dtype: DType, values: number[]): Float32Array | Float64Array =>
  dtype === "float64" ? Float64Array.from(values) : Float32Array.from(values);

/** Runs one step for `entries` (all on one device), inside torch.noGrad. */
export function runGroupStep(step: GroupStep, entries: readonly StepEntry[], host: HostScalars): void {
  const dtypesOf: DType[] = [];
  const place: { table: number; row: number }[] = [];
  const rowsPerTable: number[] = [];
  for (const entry of entries) {
    const dtype = opmath(entry.param.dtype);
    let table = dtypesOf.indexOf(dtype);
    if (table < 0) {
      table = dtypesOf.push(dtype) - 1;
      rowsPerTable.push(0);
    }
    place.push({ table, row: rowsPerTable[table]!++ });
  }
  const k = step.scalarNames.length;
  const device = entries[0]!.param.device;
  // One read serves every table; torch.compile's trace keeps the tables as inputs it reads per call.
  let rows: readonly (readonly number[])[] = [];
  const tableData = (table: number): Float32Array | Float64Array => {
    if (table === 0) rows = host.read();
    return typedArrayOf(dtypesOf[table]!, place.flatMap((p, i) => (p.table === table ? [...rows[i]!] : [])));
  };
  const trace = tracing();
  const scalarTensors = dtypesOf.map((dtype, table) =>
    trace === undefined
      ? tensor(tableData(table), { shape: [rowsPerTable[table]!, k], device })
      : trace.hostInput(() => tableData(table), table === 0 ? host.undo : () => {}, dtype, [rowsPerTable[table]!, k], device),
  );
  const inputs: Tensor[] = [...scalarTensors];
  for (const entry of entries) inputs.push(entry.param, entry.grad, ...entry.state);
  const layout = place.map((p) => `${p.table}.${p.row}`).join(",");
  try {
    const outputs = runMany(step.op, inputs, `${step.statics}|${step.stateKeys.join(",")}|${layout}`, (xs) => traceStep(step, place, xs));
    let o = 0;
    for (const entry of entries) {
      rebind(entry.param, outputs[o++]!);
      for (const s of entry.state) rebind(s, outputs[o++]!);
    }
  } finally {
    for (const t of scalarTensors) t.dispose();
  }
}

function traceStep(step: GroupStep, place: readonly { table: number; row: number }[], xs: Tracer[]): Tracer[] {
  const numTables = new Set(place.map((p) => p.table)).size;
  const tables = xs.slice(0, numTables);
  let i = numTables;
  const outputs: Tracer[] = [];
  for (const { table, row } of place) {
    const param = xs[i++]!;
    const grad = xs[i++]!;
    const state = step.stateKeys.map(() => xs[i++]!);
    const dtype = opmath(param.dtype);
    const scalars = new Map<string, Tracer>();
    const scalar = (name: string): Tracer => {
      let s = scalars.get(name);
      if (s === undefined) {
        const j = step.scalarNames.indexOf(name);
        if (j < 0) throw new Error(`${step.op}: no per-step scalar "${name}"`);
        const one = e.reshape(e.slice(tables[table]!, [row, j], [row + 1, j + 1]), []);
        scalars.set(name, (s = e.broadcastInDim(one, param.shape, [])));
      }
      return s;
    };
    const result = step.update({
      param: e.convert(param, dtype),
      grad: e.convert(grad, dtype),
      state: Object.fromEntries(step.stateKeys.map((key, j) => [key, e.convert(state[j]!, dtype)])),
      scalar,
    });
    outputs.push(e.convert(result.param, param.dtype));
    step.stateKeys.forEach((key, j) => outputs.push(e.convert(result.state[key]!, state[j]!.dtype)));
  }
  return outputs;
}

// --- PyTorch's in-place arithmetic, in its order of operations ----------------------------------

/** `a.add(b, alpha)`: a + alpha·b. */
export const addScaled = (a: Tracer, b: Tracer, alpha: Tracer): Tracer => e.add(a, e.mul(alpha, b));

/** `a.addcmul(b, c, value)`: a + (value·b)·c. */
export const addcmul = (a: Tracer, b: Tracer, c: Tracer, value: Tracer): Tracer => e.add(a, e.mul(e.mul(value, b), c));

/** `a.addcdiv(b, c, value)`: a + (value·b)/c. */
export const addcdiv = (a: Tracer, b: Tracer, c: Tracer, value: Tracer): Tracer => e.add(a, e.div(e.mul(value, b), c));

/**
 * `start.lerp(end, weight)` as PyTorch computes it: start + w·(end − start) for |w| < 0.5, else
 * end − (end − start)·(1 − w). `small` says which (it is part of the executable's signature).
 */
export function lerp(start: Tracer, end: Tracer, weight: Tracer, small: boolean): Tracer {
  const diff = e.sub(end, start);
  return small ? e.add(start, e.mul(weight, diff)) : e.sub(end, e.mul(diff, e.sub(e.full(1, weight.dtype, weight.shape), weight)));
}
