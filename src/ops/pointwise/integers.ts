/**
 * @file Number theory on integer tensors, elementwise with broadcasting: gcd and lcm (float and
 * bool tensors are an error, as in PyTorch).
 */
import { type DType, dtypes } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind, trace } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";
import { c, kind, prepare, type T } from "./operands.js";

function integerDType(name: string, dtype: DType): DType {
  if (kind(dtype) !== "int" && kind(dtype) !== "uint") throw new DTypeError(`${name}: not implemented for ${dtype} tensors; ${name} takes integer tensors`);
  return dtype;
}

const absInt = (x: T): T => (dtypes[x.dtype].kind === "uint" ? x : e.abs(x));

/** gcd(|a|, |b|) by Euclid's algorithm, all elements stepping together until every remainder is 0. */
function gcdT(a: T, b: T): T {
  const state = [absInt(a), absInt(b)];
  const pending = ([, r]: T[]) => e.reduce("or", e.compare(r!, c(r!, 0), "NE"), r!.shape.map((_, i) => i));
  const step = ([x, r]: T[]) => {
    const live = e.compare(r!, c(r!, 0), "NE");
    const divisor = e.select(live, r!, c(r!, 1));
    return [e.select(live, r!, x!), e.select(live, e.rem(x!, divisor), r!)];
  };
  return bind("while", state, { cond: trace(state, pending).graph, body: trace(state, step).graph })[0]!;
}

/** 8- and 16-bit integers compute in int32, as C++ promotes them (lcm's product may overflow them before it wraps). */
const computeInt = (d: DType): DType => (dtypes[d].itemSize < 4 ? "int32" : d);

function gcdLcm(name: "gcd" | "lcm", input: Tensor, other: Tensor): Tensor {
  return run(name, [input, other], "", ([x, y]) => {
    const dtype = integerDType(name, promote(x!, y!));
    const [a, b] = prepare(name, x!, y!, computeInt(dtype));
    const g = gcdT(a, b);
    if (name === "gcd") return e.convert(g, dtype);
    const zero = e.compare(g, c(g, 0), "EQ");
    return e.convert(e.select(zero, c(g, 0), absInt(e.mul(e.div(a, e.select(zero, c(g, 1), g)), b))), dtype);
  });
}

export const gcd = op(
  "gcd(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The greatest common divisor of input and other (non-negative; gcd(0, 0) = 0), elementwise with broadcasting; integer tensors only.", method: true },
  ({ input, other }) => gcdLcm("gcd", input, other),
);

export const lcm = op(
  "lcm(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The least common multiple of input and other (non-negative; 0 when either is 0), elementwise with broadcasting; integer tensors only.", method: true },
  ({ input, other }) => gcdLcm("lcm", input, other),
);
