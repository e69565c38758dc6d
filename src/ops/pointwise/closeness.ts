/**
 * @file Closeness tests: isclose (elementwise), allclose and equal (one boolean for the whole tensor).
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { type Operand, promote, run } from "../unit.js";
import { c, computeDType, isNanT, prepare, type T } from "./operands.js";

function closeTracer(x: Operand, y: Operand, rtol: number, atol: number, equalNan: boolean): T {
  const dtype = promote(x, y);
  const [p, q] = prepare("isclose", x, y, dtype);
  const eq = e.compare(p, q, "EQ");
  if (!isFloating(dtype)) {
    if (rtol === 0 && atol === 0) return eq;
    const f = (v: T) => e.convert(v, "float64");
    const diff = e.abs(e.sub(f(p), f(q)));
    return e.or(eq, e.compare(diff, e.add(c(diff, atol), e.mul(c(diff, rtol), e.abs(f(q)))), "LE"));
  }
  const cd = computeDType(dtype);
  const a = e.convert(p, cd);
  const b = e.convert(q, cd);
  const diff = e.abs(e.sub(a, b));
  const tol = e.add(c(diff, atol), e.mul(c(diff, rtol), e.abs(b)));
  const finiteClose = e.and(e.isFinite(diff), e.compare(diff, tol, "LE"));
  let r = e.or(eq, finiteClose);
  if (equalNan) r = e.or(r, e.and(isNanT(a), isNanT(b)));
  return r;
}

function checkClose(name: string, a: Tensor, b: Tensor, rtol: number, atol: number): void {
  if (rtol < 0) throw new ArgumentError(`${name}: rtol must be greater than or equal to zero, got ${rtol}`);
  if (atol < 0) throw new ArgumentError(`${name}: atol must be greater than or equal to zero, got ${atol}`);
  if (a.dtype !== b.dtype) throw new DTypeError(`${name}: ${a.dtype} and ${b.dtype} tensors differ in dtype`);
}

export const isclose = op(
  "isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equalNan: bool = false) -> Tensor",
  { doc: "|input − other| ≤ atol + rtol × |other|, elementwise (bool); equal infinities are close, NaNs only with equalNan. The dtypes must match.", method: true },
  ({ input, other, rtol, atol, equalNan }) => {
    checkClose("isclose", input, other, rtol, atol);
    return run("isclose", [input, other], `${rtol},${atol},${equalNan}`, ([x, y]) => closeTracer(x!, y!, rtol, atol, equalNan));
  },
);

/** Whether `body` is true everywhere, as a JS boolean. */
function allOf(name: string, inputs: Tensor[], statics: string, body: (xs: Operand[]) => T): boolean {
  const t = run(name, inputs, statics, (xs) => {
    const r = body(xs);
    return e.reduce("and", r, r.shape.map((_, i) => i));
  });
  try {
    return t.item() as boolean;
  } finally {
    t.dispose();
  }
}

export const allclose = op(
  "allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equalNan: bool = false) -> bool",
  { doc: "Whether every element of input is close to other (see isclose), as a boolean.", method: true },
  ({ input, other, rtol, atol, equalNan }) => {
    checkClose("allclose", input, other, rtol, atol);
    return allOf("allclose", [input, other], `${rtol},${atol},${equalNan}`, ([x, y]) => closeTracer(x!, y!, rtol, atol, equalNan));
  },
);

export const equal = op(
  "equal(input: Tensor, other: Tensor) -> bool",
  { doc: "Whether input and other have the same shape and elements, as a boolean.", method: true },
  ({ input, other }) => {
    if (input.shape.length !== other.shape.length || input.shape.some((d, i) => d !== other.shape[i])) return false;
    return allOf("equal", [input, other], "", ([x, y]) => {
      const [p, q] = prepare("equal", x!, y!, promote(x!, y!));
      return e.compare(p, q, "EQ");
    });
  },
);
