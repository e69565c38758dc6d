/**
 * @file The conformance fixtures (test/fixtures/*.json, made by scripts/gen_fixtures.py with PyTorch
 * as the oracle): loading, turning a case into torch-pjrt calls, and comparing results with
 * PyTorch's (dtype exactly, shape exactly, values NaN-aware within the case's tolerances).
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as torch from "../../src/index.js";
import type * as TorchModule from "../../src/index.js";
import { opOf, opTable } from "../../src/ops/signature/op.js";
import { callStyles } from "./call_styles.js";
import { type DType, isFloat, type Scalar, toTyped } from "../ops/dtypes.js";

type Torch = typeof TorchModule;
type AnyTensor = TorchModule.Tensor;

export type JsonValue = number | string | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export interface TensorSpec {
  dtype: string;
  shape: number[];
  values: (number | string | boolean)[];
}

export type Expected =
  | { tensor: TensorSpec }
  | { list: TensorSpec[] }
  | { fields: Record<string, TensorSpec> }
  | { value: JsonValue }
  | { error: string; message: string };

export interface FixtureCase {
  id: string;
  /** PyTorch's spelling ("add", "nn.functional.gelu", "Tensor.view"). */
  op: string;
  /** Our name: a path in the torch-pjrt module ("add", "nn.functional.gelu"). */
  name: string;
  /** Our Tensor method (self = args[0]) when PyTorch has the method. */
  method?: string;
  /** PyTorch has it as a Tensor property (x.mT), not a call. */
  property?: boolean;
  inputs: TensorSpec[];
  args: JsonValue[];
  kwargs?: Record<string, JsonValue>;
  expected: Expected;
  rtol?: number;
  atol?: number;
  /**
   * PyTorch's vector-Jacobian product, for autograd (not checked yet): one seeded cotangent per
   * float32/float64 output (in output order), and each input's gradient (null: not differentiable).
   */
  grad?: { cotangents: TensorSpec[]; inputs: (TensorSpec | null)[] };
}

export interface Family {
  family: string;
  torch: string;
  cases: FixtureCase[];
}

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

export function loadFamilies(): Family[] {
  return readdirSync(fixturesDir)
    .filter((f) => f.endsWith(".json") && !notFamilies.has(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(fixturesDir, f), "utf8")) as Family);
}

const knownFailuresFile = "known-failures.json";
/** The JSON files in test/fixtures/ that are not case families: known failures, and PyTorch's signatures (test/signatures.test.ts). */
const notFamilies = new Set([knownFailuresFile, "signatures.json"]);

/** Case ids that fail today (bugs for the op library), with the first mismatch: test/fixtures/known-failures.json. */
export function loadKnownFailures(section: "cases" | "gradients" = "cases"): Map<string, string> {
  let doc: { cases?: Record<string, string>; gradients?: Record<string, string> };
  try {
    doc = JSON.parse(readFileSync(join(fixturesDir, knownFailuresFile), "utf8"));
  } catch {
    return new Map();
  }
  return new Map(Object.entries(doc[section] ?? {}));
}

/** torch.<path> ("add", "nn.functional.gelu") when it is a function, else undefined. */
export function resolveFunction(torch: Torch, path: string): ((...args: unknown[]) => unknown) | undefined {
  let obj: unknown = torch;
  for (const part of path.split(".")) {
    if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) return undefined;
    obj = (obj as Record<string, unknown>)[part];
  }
  return typeof obj === "function" ? (obj as (...args: unknown[]) => unknown) : undefined;
}

/** Whether Tensor.prototype has `name` (a method, or a getter for a property case). */
export function hasMethod(torch: Torch, name: string, property = false): boolean {
  const proto = torch.Tensor.prototype as unknown as Record<string, unknown>;
  let p: object | null = proto;
  while (p !== null) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d) return property ? d.get !== undefined || typeof d.value !== "function" : typeof d.value === "function";
    p = Object.getPrototypeOf(p);
  }
  return false;
}

const special = (v: number | string): number => {
  if (typeof v === "number") return v;
  if (v === "nan") return Number.NaN;
  if (v === "inf") return Number.POSITIVE_INFINITY;
  if (v === "-inf") return Number.NEGATIVE_INFINITY;
  throw new Error(`fixture: bad float value ${JSON.stringify(v)}`);
};

/** The dtypes fixture tensors come in. */
const fixtureDtypes: ReadonlySet<string> = new Set<DType>([
  "float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
]);

/** The case's input as a TypedArray torch.tensor takes for its dtype (the op table's toTyped, on decoded JSON values). */
export function hostData(spec: TensorSpec): ArrayBufferView {
  if (!fixtureDtypes.has(spec.dtype)) throw new Error(`fixture: unsupported dtype ${spec.dtype}`);
  const d = spec.dtype as DType;
  const v = spec.values;
  let values: Scalar[];
  if (isFloat(d)) values = (v as (number | string)[]).map(special);
  else if (d === "int64") values = (v as (number | string)[]).map((x) => BigInt(x));
  else if (d === "bool") values = (v as boolean[]).map((x) => (x ? 1 : 0));
  else values = v as number[];
  return toTyped(d, values);
}

export function makeInput(torch: Torch, spec: TensorSpec, device: string): AnyTensor {
  return torch.tensor(hostData(spec) as never, { dtype: spec.dtype as TorchModule.DType, shape: spec.shape, device });
}

/** Decodes an argument: {"$t": i} → inputs[i], {"$f": "nan"} → NaN, lists and plain objects recursively. */
export function decodeArg(v: JsonValue, inputs: readonly AnyTensor[]): unknown {
  if (Array.isArray(v)) return v.map((x) => decodeArg(x, inputs));
  if (v !== null && typeof v === "object") {
    if ("$t" in v) return inputs[v.$t as number];
    if ("$f" in v) return special(v.$f as string);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decodeArg(x, inputs)]));
  }
  return v;
}

/**
 * The call's arguments: positional ones, then the options object when the case has one. A case with
 * no tensor inputs (a factory: zeros, arange…) gets `device` in its options, so it runs on each device.
 */
export function callArgs(c: FixtureCase, inputs: readonly AnyTensor[], device?: string): unknown[] {
  const args = c.args.map((a) => decodeArg(a, inputs));
  // an op of no tensors that makes one (zeros, arange) is told the device; one that answers a plain value (canCast) is not
  const factory = c.inputs.length === 0 && device !== undefined && !("value" in c.expected);
  if (c.kwargs !== undefined || factory) {
    const options = (c.kwargs === undefined ? {} : decodeArg(c.kwargs, inputs)) as Record<string, unknown>;
    args.push(factory ? { ...options, device } : options);
  }
  return args;
}

const fmt = (x: number | bigint | boolean): string => (typeof x === "number" && Object.is(x, -0) ? "-0" : String(x));

function isTensor(torch: Torch, v: unknown): v is AnyTensor {
  return v instanceof torch.Tensor;
}

/** Compares one tensor with PyTorch's; returns a description of the first mismatch, or undefined. */
export async function compareTensor(
  torch: Torch, actual: unknown, want: TensorSpec, rtol: number, atol: number, what = "result", device?: string,
): Promise<string | undefined> {
  if (!isTensor(torch, actual)) return `${what}: expected a Tensor, got ${describe(actual)}`;
  if (device !== undefined && actual.device !== device) return `${what}: on ${actual.device}, expected ${device} (where the inputs are)`;
  if (actual.dtype !== want.dtype) return `${what}: dtype ${actual.dtype}, PyTorch gives ${want.dtype}`;
  if (actual.shape.length !== want.shape.length || actual.shape.some((d, i) => d !== want.shape[i])) {
    return `${what}: shape [${actual.shape.join(", ")}], PyTorch gives [${want.shape.join(", ")}]`;
  }
  const data = (await actual.data()) as ArrayLike<number | bigint>;
  if (data.length !== want.values.length) return `${what}: ${data.length} values, PyTorch gives ${want.values.length}`;
  const bad: string[] = [];
  let nBad = 0;
  const narrow = want.dtype === "float32" || want.dtype === "float16" || want.dtype === "bfloat16";
  for (let i = 0; i < data.length; i++) {
    const got = data[i]!;
    const w = want.values[i]!;
    let ok: boolean;
    let expectedStr: string;
    if (want.dtype === "bool") {
      ok = Number(got) === (w ? 1 : 0);
      expectedStr = String(w);
    } else if (want.dtype === "int64") {
      ok = BigInt(got) === BigInt(w as number | string);
      expectedStr = String(w);
    } else if (typeof got === "bigint") {
      ok = got === BigInt(w as number);
      expectedStr = String(w);
    } else {
      // float32/float16/bfloat16 values are stored in their shortest float32 form: compare as float32
      const e = narrow ? Math.fround(special(w as number | string)) : special(w as number | string);
      expectedStr = fmt(e);
      if (Number.isNaN(e)) ok = Number.isNaN(got);
      else if (!Number.isFinite(e)) ok = got === e;
      else ok = Number.isFinite(got) && Math.abs(got - e) <= atol + rtol * Math.abs(e);
    }
    if (!ok) {
      nBad++;
      if (bad.length < 6) bad.push(`[${i}] ${fmt(want.dtype === "bool" ? got !== 0 && got !== 0n : got)} vs ${expectedStr}`);
    }
  }
  if (nBad === 0) return undefined;
  return `${what}: ${nBad} of ${data.length} values differ (got vs PyTorch, rtol ${rtol}, atol ${atol}): ${bad.join(", ")}${nBad > bad.length ? ", …" : ""}`;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === "object") return (v as object).constructor?.name ?? "an object";
  return `${typeof v} ${String(v)}`;
}

/** Compares an op's result with the case's expected output; undefined when it matches. */
export async function compareResult(torch: Torch, actual: unknown, c: FixtureCase, device?: string): Promise<string | undefined> {
  const e = c.expected;
  const rtol = c.rtol ?? 0;
  const atol = c.atol ?? 0;
  if ("tensor" in e) return compareTensor(torch, actual, e.tensor, rtol, atol, "result", device);
  if ("list" in e) {
    if (!Array.isArray(actual)) return `expected an array of ${e.list.length} tensors, got ${describe(actual)}`;
    if (actual.length !== e.list.length) return `expected ${e.list.length} tensors, got ${actual.length}`;
    for (let i = 0; i < e.list.length; i++) {
      const m = await compareTensor(torch, actual[i], e.list[i]!, rtol, atol, `result[${i}]`, device);
      if (m) return m;
    }
    return undefined;
  }
  if ("fields" in e) {
    if (actual === null || typeof actual !== "object" || isTensor(torch, actual)) {
      return `expected { ${Object.keys(e.fields).join(", ")} }, got ${describe(actual)}`;
    }
    for (const [k, spec] of Object.entries(e.fields)) {
      const m = await compareTensor(torch, (actual as Record<string, unknown>)[k], spec, rtol, atol, k, device);
      if (m) return m;
    }
    return undefined;
  }
  if ("value" in e) {
    const want = e.value;
    if (isTensor(torch, actual)) return `expected a JS ${typeof want} (${String(want)}), got a Tensor`;
    if (typeof want === "number" || typeof want === "string") {
      const w = special(want as number | string);
      const got = Number(actual);
      return (Number.isNaN(w) && Number.isNaN(got)) || Math.abs(got - w) <= atol + rtol * Math.abs(w)
        ? undefined
        : `value ${String(actual)}, PyTorch gives ${String(want)}`;
    }
    return actual === want ? undefined : `value ${describe(actual)}, PyTorch gives ${String(want)}`;
  }
  throw new Error(`fixture ${c.id}: expected an error, not a result`);
}

/** Every Tensor in an op's result (a tensor, an array of them, or an object of them). */
export function tensorsIn(torch: Torch, v: unknown): AnyTensor[] {
  if (isTensor(torch, v)) return [v];
  if (Array.isArray(v)) return v.flatMap((x) => tensorsIn(torch, x));
  if (v !== null && typeof v === "object") return Object.values(v).flatMap((x) => tensorsIn(torch, x));
  return [];
}

/**
 * Inputs an op updates in place by PyTorch's own semantics (not only "_" methods): batch_norm in
 * training mode updates runningMean and runningVar (inputs 1 and 2; test/eager-nn.test.ts checks the values).
 */
function updatesInputs(c: FixtureCase): number[] {
  return c.op === "nn.functional.batch_norm" && c.kwargs?.training === true ? [1, 2] : [];
}

export type CallStyle = "as written" | "positional" | "options";

/** A fingerprint of an argument list, to skip a spelling that is the same call as another. */
function spelling(args: readonly unknown[], inputs: readonly AnyTensor[]): string {
  return JSON.stringify(args, (_k, v: unknown) => (inputs.includes(v as AnyTensor) ? `$t${inputs.indexOf(v as AnyTensor)}` : typeof v === "bigint" ? `${v}n` : v));
}

/** The case's arguments in `style` (undefined when that spelling is the call as written). */
function styled(c: FixtureCase, args: unknown[], inputs: readonly AnyTensor[], form: "function" | "method", style: CallStyle): unknown[] | undefined {
  if (style === "as written") return args;
  const name = form === "function" ? undefined : c.method;
  const entry = name === undefined ? opOf(resolveFunction(torch, c.name)) : opTable().find((e) => e.name === name && e.method !== undefined);
  const signatures = form === "function" ? entry?.signatures : entry?.method?.signatures;
  if (signatures === undefined) return undefined;
  const own = form === "function" ? args : args.slice(1);
  const out = callStyles(signatures, own).find((s) => s.style === style)?.args;
  if (out === undefined || spelling(out, inputs) === spelling(own, inputs)) return undefined;
  return form === "function" ? out : [args[0], ...out];
}

/**
 * Runs one form of a case (function or method) on a device, with the arguments as the fixture
 * writes them or respelled (all positional, or all options); returns a mismatch, undefined when it
 * matches, or "same call" when that spelling is the call as written.
 */
export async function runCase(torch: Torch, c: FixtureCase, device: string, form: "function" | "method", style: CallStyle = "as written"): Promise<string | undefined> {
  const inputs: AnyTensor[] = [];
  let result: unknown;
  try {
    for (const spec of c.inputs) inputs.push(makeInput(torch, spec, device));
    const args = styled(c, callArgs(c, inputs, device), inputs, form, style);
    if (args === undefined) return "same call";
    const call = (): unknown => {
      if (form === "function") return resolveFunction(torch, c.name)!(...args);
      const self = args[0] as Record<string, unknown>;
      const name = c.property ? c.name : c.method!;
      if (c.property) return self[name];
      return (self[name] as (...a: unknown[]) => unknown)(...args.slice(1));
    };
    if ("error" in c.expected) {
      const want = c.expected.error;
      const cls = (torch as unknown as Record<string, unknown>)[want] as (new (...a: never[]) => Error) | undefined;
      try {
        result = call();
      } catch (err) {
        if (cls && err instanceof cls) return undefined;
        return `threw ${(err as Error)?.constructor?.name ?? typeof err} (${(err as Error)?.message}), expected a ${want} (PyTorch: ${c.expected.message})`;
      }
      return `returned ${describe(result)}, expected a ${want} (PyTorch: ${c.expected.message})`;
    }
    try {
      result = call();
    } catch (err) {
      return `threw ${(err as Error)?.constructor?.name ?? typeof err}: ${(err as Error)?.message}`;
    }
    if (result instanceof Promise) result = await result;
    const mismatch = await compareResult(torch, result, c, device);
    if (mismatch) return mismatch;
    // Views are copies and only in-place ops (name ending in "_": x.relu_(), torch.selu_(x)) may change their inputs.
    const inPlace = (form === "method" ? (c.method ?? "") : c.name).endsWith("_");
    if (!inPlace) {
      const outs = tensorsIn(torch, result);
      const same = inputs.findIndex((t) => outs.includes(t));
      if (same >= 0) return `returned input ${same} itself, not a new tensor (views are copies in torch-pjrt)`;
      for (let i = 0; i < inputs.length; i++) {
        if (updatesInputs(c).includes(i)) continue;
        const m = await compareTensor(torch, inputs[i], c.inputs[i]!, 0, 0, `input ${i} after the call`, device);
        if (m) return `changed its input: ${m}`;
      }
    }
    return undefined;
  } finally {
    for (const t of tensorsIn(torch, result)) t.dispose();
    for (const t of inputs) t.dispose();
  }
}
