/**
 * @file einsum: parses the equation (explicit `->` or implicit output, `...`, repeated subscripts),
 * takes diagonals, sums subscripts no one needs, and contracts the operands left to right, one
 * dot_general per pair. Subscripts of size 1 broadcast against the same subscript elsewhere, as in
 * PyTorch.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { checkProductDTypes, dotGeneral } from "./dot_general.js";

/** A subscript: a letter, or `.k` for the k-th dim covered by the ellipsis (counted over the widest one). */
type Label = string;

export interface EinsumPlan {
  /** Each operand's subscripts, one per dim. */
  inputs: Label[][];
  output: Label[];
}

const isLetter = (c: string): boolean => /^[a-zA-Z]$/.test(c);

/** A term's letters, with null where its ellipsis is. `offset` is the term's index in the equation. */
function tokens(term: string, offset: number, what: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < term.length; i++) {
    const c = term[i]!;
    if (c === ".") {
      if (term.slice(i, i + 3) !== "...") throw new ArgumentError(`einsum: '.' at index ${offset + i} of the equation is not part of an ellipsis '...'`);
      if (out.includes(null)) throw new ArgumentError(`einsum: ${what} has more than one ellipsis '...'`);
      out.push(null);
      i += 2;
    } else if (!isLetter(c)) {
      throw new ArgumentError(`einsum: invalid subscript '${c}' at index ${offset + i} of the equation; subscripts are letters a-z, A-Z and '...'`);
    } else out.push(c);
  }
  return out;
}

/** Checks an equation against the operands' shapes and labels every dim. */
export function planEinsum(equation: string, shapes: readonly (readonly number[])[]): EinsumPlan {
  const eq = equation.replace(/\s+/g, "");
  const arrow = eq.indexOf("->");
  if (arrow >= 0 && eq.indexOf("->", arrow + 1) >= 0) throw new ArgumentError(`einsum: '->' appears more than once in "${equation}"`);
  const lhs = arrow >= 0 ? eq.slice(0, arrow) : eq;
  const terms = lhs.split(",");
  if (terms.length !== shapes.length) {
    throw new ArgumentError(`einsum: the equation "${equation}" has ${terms.length} operand term(s) but ${shapes.length} tensor(s) were given`);
  }
  let offset = 0;
  const parsed = terms.map((term, k) => {
    const toks = tokens(term, offset, `operand ${k}`);
    offset += term.length + 1;
    const named = toks.filter((t) => t !== null).length;
    const rank = shapes[k]!.length;
    const ellipsis = toks.includes(null);
    if (ellipsis ? rank < named : rank !== named) {
      throw new ShapeError(
        `einsum: operand ${k} has ${rank} dims (shape ${fmtShape(shapes[k]!)}) but its subscripts '${term}' name ${named}${ellipsis ? " and an ellipsis" : ""}`,
      );
    }
    return { toks, spread: rank - named };
  });
  const width = Math.max(0, ...parsed.map((p) => (p.toks.includes(null) ? p.spread : 0)));
  const ellipsisLabels = (n: number): Label[] => Array.from({ length: n }, (_, j) => `.${width - n + j}`);
  const inputs = parsed.map(({ toks, spread }) => toks.flatMap((t) => (t === null ? ellipsisLabels(spread) : [t])));

  const letters = inputs.flat().filter(isLetter);
  let output: Label[];
  if (arrow < 0) {
    const once = [...new Set(letters)].filter((l) => letters.indexOf(l) === letters.lastIndexOf(l)).sort();
    output = [...ellipsisLabels(width), ...once];
  } else {
    const toks = tokens(eq.slice(arrow + 2), arrow + 2, "the output");
    output = toks.flatMap((t) => (t === null ? ellipsisLabels(width) : [t]));
    for (const t of toks) {
      if (t === null) continue;
      if (!letters.includes(t)) throw new ArgumentError(`einsum: output subscript '${t}' does not appear in any operand of "${equation}"`);
      if (toks.indexOf(t) !== toks.lastIndexOf(t)) throw new ArgumentError(`einsum: output subscript '${t}' appears more than once in "${equation}"`);
    }
  }
  checkSizes(inputs, shapes);
  return { inputs, output };
}

const show = (l: Label): string => (isLetter(l) ? `subscript '${l}'` : `ellipsis dim ${l.slice(1)}`);

/** Repeats of a subscript in one operand must match exactly; across operands they may also be 1. */
function checkSizes(inputs: readonly Label[][], shapes: readonly (readonly number[])[]): void {
  const seen = new Map<Label, { size: number; operand: number }>();
  inputs.forEach((labels, k) => {
    const own = new Map<Label, number>();
    labels.forEach((l, d) => {
      const size = shapes[k]![d]!;
      const mine = own.get(l);
      if (mine !== undefined && mine !== size) {
        throw new ShapeError(`einsum: ${show(l)} is repeated in operand ${k} (shape ${fmtShape(shapes[k]!)}) with different sizes, ${mine} != ${size}`);
      }
      own.set(l, size);
      const other = seen.get(l);
      if (other === undefined || other.size === 1) seen.set(l, { size, operand: k });
      else if (size !== 1 && size !== other.size) {
        throw new ShapeError(`einsum: ${show(l)} has size ${other.size} in operand ${other.operand} but size ${size} in operand ${k}; they must match or be 1`);
      }
    });
  });
}

interface Term {
  t: Tracer;
  labels: Label[];
}

/** The diagonal of `x` over dims i < j (equal sizes): those two dims become one, placed last. */
function diagonal(x: Tracer, i: number, j: number): Tracer {
  const rest = x.shape.map((_, k) => k).filter((k) => k !== i && k !== j);
  const n = x.shape[i]!;
  const moved = e.transpose(x, [...rest, i, j]);
  const lead = rest.map((k) => x.shape[k]!);
  const flat = e.reshape(moved, [...lead, n * n]);
  // Every (n + 1)-th element of the flattened n × n block is on its diagonal.
  return bind1("slice", [flat], { start: [...lead.map(() => 0), 0], limit: [...lead, n * n], strides: [...lead.map(() => 1), n + 1] });
}

/** One label per dim: repeated labels replaced by their diagonal. */
function takeDiagonals(term: Term): Term {
  let { t, labels } = term;
  for (;;) {
    const i = labels.findIndex((l, k) => labels.indexOf(l) !== k);
    if (i < 0) return { t, labels };
    const first = labels.indexOf(labels[i]!);
    const label = labels[i]!;
    t = diagonal(t, first, i);
    labels = [...labels.filter((_, k) => k !== first && k !== i), label];
  }
}

/** Sums away the labels not in `keep`. */
function sumExcept(term: Term, keep: ReadonlySet<Label>): Term {
  const dims = term.labels.flatMap((l, k) => (keep.has(l) ? [] : [k]));
  if (dims.length === 0) return term;
  return { t: inOpmath(term.t, (wide) => e.reduce("sum", wide, dims)), labels: term.labels.filter((l) => keep.has(l)) };
}

/** `term` with the dim of `label` stretched from 1 to `size`. */
function stretch(term: Term, label: Label, size: number): Term {
  const shape = term.labels.map((l, k) => (l === label ? size : term.t.shape[k]!));
  return { t: e.broadcastInDim(term.t, shape, shape.map((_, k) => k)), labels: term.labels };
}

function contract(a: Term, b: Term, later: ReadonlySet<Label>): Term {
  const shared = a.labels.filter((l) => b.labels.includes(l));
  for (const l of shared) {
    const sa = a.t.shape[a.labels.indexOf(l)]!;
    const sb = b.t.shape[b.labels.indexOf(l)]!;
    if (sa !== sb) {
      if (sa === 1) a = stretch(a, l, sb);
      else b = stretch(b, l, sa);
    }
  }
  const batch = shared.filter((l) => later.has(l));
  const summed = shared.filter((l) => !later.has(l));
  const at = (term: Term, ls: Label[]): number[] => ls.map((l) => term.labels.indexOf(l));
  const t = dotGeneral(a.t, b.t, at(a, batch), at(b, batch), at(a, summed), at(b, summed));
  return { t, labels: [...batch, ...a.labels.filter((l) => !shared.includes(l)), ...b.labels.filter((l) => !shared.includes(l))] };
}

/** The traced einsum of `xs` under `plan`. */
export function einsumTraced(plan: EinsumPlan, xs: readonly Tracer[]): Tracer {
  const out = new Set(plan.output);
  const neededBy = (from: number): Set<Label> => new Set([...out, ...plan.inputs.slice(from).flat()]);
  const terms = xs.map((t, k) => {
    const own = takeDiagonals({ t, labels: plan.inputs[k]! });
    const others = new Set([...out, ...plan.inputs.filter((_, j) => j !== k).flat()]);
    return sumExcept(own, others);
  });
  let acc = terms[0]!;
  for (let k = 1; k < terms.length; k++) acc = contract(acc, terms[k]!, neededBy(k + 1));
  acc = sumExcept(acc, out);
  const perm = plan.output.map((l) => acc.labels.indexOf(l));
  return perm.every((p, k) => p === k) ? acc.t : e.transpose(acc.t, perm);
}

export const einsum = op(
  "einsum(equation: str, ...operands: Tensor) -> Tensor",
  {
    doc: 'Einstein summation: `einsum("bij,bjk->bik", a, b)`, implicit output (`"ij,jk"`: subscripts that appear once, in alphabetical order, after the ellipsis dims), `...` for broadcast leading dims, repeated subscripts for diagonals and traces; the operands as arguments or one list.',
  },
  ({ equation, operands }) => {
    if (operands.length === 0) throw new ArgumentError("einsum: expected at least one tensor operand");
    return run("einsum", operands, equation, (xs) => {
      const traced = xs as Tracer[];
      checkProductDTypes("einsum", ...traced);
      return einsumTraced(planEinsum(equation, traced.map((t) => t.shape)), traced);
    });
  },
);
