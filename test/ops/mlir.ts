// A small builder that prints StableHLO modules in MLIR generic form:
//   "builtin.module"() ({ "func.func"() ({ ^bb0(%a0: …): … "func.return"(…) : (…) -> () })
//     {function_type = …, sym_name = "main", sym_visibility = "public"} : () -> () })
//     {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
// Dimension lists are `array<i64: …>`.

import { DTYPES, type DType, type Scalar } from "./dtypes.js";

export interface TType {
  dtype: DType;
  shape: number[];
  /** an element type torch-pjrt's tensors do not have (f8E4M3FN, i4), printed instead of dtype's */
  element?: string;
}

export function typeStr(t: TType): string {
  const el = t.element ?? DTYPES[t.dtype].mlir;
  return t.shape.length ? `tensor<${t.shape.join("x")}x${el}>` : `tensor<${el}>`;
}

export const arr = (xs: number[]) => (xs.length ? `array<i64: ${xs.join(", ")}>` : "array<i64>");

export interface Value {
  name: string;
  type: TType;
}

/** Prints one element for a dense<…> literal of a dtype. Floats use exact decimal or hex bit patterns. */
export function literalElement(d: DType, v: Scalar): string {
  const info = DTYPES[d];
  if (info.kind === "pred") return v ? "true" : "false";
  if (info.kind !== "float") return toBigString(v);
  const x = v as number;
  if (Number.isNaN(x) || !Number.isFinite(x)) {
    // MLIR float literals accept the bit pattern as a hex integer.
    const nanInf: Record<string, [string, string, string]> = {
      float32: ["0x7FC00000", "0x7F800000", "0xFF800000"],
      float64: ["0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000"],
      float16: ["0x7E00", "0x7C00", "0xFC00"],
      bfloat16: ["0x7FC0", "0x7F80", "0xFF80"],
    };
    const [nan, pinf, ninf] = nanInf[d]!;
    return Number.isNaN(x) ? nan : x > 0 ? pinf : ninf;
  }
  if (Object.is(x, -0)) return "-0.0";
  // JS prints the shortest decimal that reads back as the same double; the value is exact in the
  // dtype, so MLIR's rounding of that double to the dtype is exact too.
  let s = String(x);
  if (!/[.eE]/.test(s)) s += ".0";
  else if (/^-?\d+e/.test(s)) s = s.replace("e", ".0e");
  return s;
}

function toBigString(v: Scalar): string {
  return typeof v === "bigint" ? v.toString() : String(v);
}

export function denseLiteral(t: TType, values: Scalar[]): string {
  const els = values.map((v) => literalElement(t.dtype, v));
  const nested = (dim: number, offset: number): [string, number] => {
    if (dim === t.shape.length) return [els[offset]!, offset + 1];
    const parts: string[] = [];
    let o = offset;
    for (let i = 0; i < t.shape[dim]!; i++) {
      const [s, next] = nested(dim + 1, o);
      parts.push(s);
      o = next;
    }
    return [`[${parts.join(", ")}]`, o];
  };
  const body = t.shape.length === 0 ? els[0]! : nested(0, 0)[0];
  return `dense<${body}> : ${typeStr(t)}`;
}

/** Builds the body of one function or region. Value names are unique per module. */
export class Block {
  readonly lines: string[] = [];
  readonly args: Value[];
  constructor(
    readonly mod: ModuleBuilder,
    argTypes: TType[],
    readonly indent: string,
  ) {
    this.args = argTypes.map((type) => ({ name: mod.fresh("arg"), type }));
  }

  /** Emits `%r = "name"(operands) ({regions}) {attrs} : (operand types) -> result type(s)`. */
  op(name: string, operands: Value[], resultTypes: TType[], attrs = "", regions: string[] = []): Value[] {
    const results = resultTypes.map((type) => ({ name: this.mod.fresh("v"), type }));
    const lhs = results.length ? `${results.map((r) => r.name).join(", ")} = ` : "";
    const regionText = regions.length ? ` (${regions.join(", ")})` : "";
    const attrText = attrs ? ` {${attrs}}` : "";
    const ins = operands.map((o) => typeStr(o.type)).join(", ");
    const outs =
      resultTypes.length === 1 ? typeStr(resultTypes[0]!) : `(${resultTypes.map(typeStr).join(", ")})`;
    this.lines.push(
      `${this.indent}${lhs}"${name}"(${operands.map((o) => o.name).join(", ")})${regionText}${attrText} : (${ins}) -> ${outs}`,
    );
    return results;
  }

  op1(name: string, operands: Value[], resultType: TType, attrs = "", regions: string[] = []): Value {
    return this.op(name, operands, [resultType], attrs, regions)[0]!;
  }

  constant(t: TType, values: Scalar[]): Value {
    return this.op1("stablehlo.constant", [], t, `value = ${denseLiteral(t, values)}`);
  }

  /** Terminates the block with `"<terminator>"(values) : (types) -> ()`. */
  ret(terminator: string, values: Value[]) {
    const types = values.map((v) => typeStr(v.type)).join(", ");
    this.lines.push(`${this.indent}"${terminator}"(${values.map((v) => v.name).join(", ")}) : (${types}) -> ()`);
  }

  /** A region `{ ^bb0(args): … "stablehlo.return"(…) }` built by `body`. */
  region(argTypes: TType[], body: (b: Block, args: Value[]) => Value[]): string {
    const b = new Block(this.mod, argTypes, this.indent + "  ");
    const results = body(b, b.args);
    b.ret("stablehlo.return", results);
    const header = argTypes.length
      ? `${this.indent}^bb0(${b.args.map((a) => `${a.name}: ${typeStr(a.type)}`).join(", ")}):\n`
      : "";
    return `{\n${header}${b.lines.join("\n")}\n${this.indent}}`;
  }
}

export class ModuleBuilder {
  private counter = 0;
  fresh(prefix: string): string {
    return `%${prefix}${this.counter++}`;
  }
}

/** Builds a whole module with one public function `main`. */
export function buildModule(argTypes: TType[], body: (b: Block, args: Value[]) => Value[]): string {
  const mod = new ModuleBuilder();
  const b = new Block(mod, argTypes, "      ");
  const results = body(b, b.args);
  b.ret("func.return", results);
  const header = argTypes.length
    ? `    ^bb0(${b.args.map((a) => `${a.name}: ${typeStr(a.type)}`).join(", ")}):\n`
    : "";
  const ins = argTypes.map(typeStr).join(", ");
  const outs = results.length === 1 ? typeStr(results[0]!.type) : `(${results.map((r) => typeStr(r.type)).join(", ")})`;
  return [
    `"builtin.module"() ({`,
    `  "func.func"() ({`,
    `${header}${b.lines.join("\n")}`,
    `  }) {function_type = (${ins}) -> ${outs}, sym_name = "main", sym_visibility = "public"} : () -> ()`,
    `}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()`,
    ``,
  ].join("\n");
}

/** The module `main(args) -> op(args)` for a single op with one result. */
export function singleOp(name: string, argTypes: TType[], resultType: TType, attrs = ""): string {
  return buildModule(argTypes, (b, args) => [b.op1(name, args, resultType, attrs)]);
}

export const cmpAttrs = (dir: string, type?: string) =>
  `comparison_direction = #stablehlo<comparison_direction ${dir}>` +
  (type ? `, compare_type = #stablehlo<comparison_type ${type}>` : "");
