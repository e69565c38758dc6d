/**
 * @file Attaches API functions to Tensor.prototype as methods: `x.name(...args)` calls `fn(x, ...args)`.
 */
import { Tensor } from "../tensor.js";

export type MethodTable = Record<string, (self: Tensor, ...args: never[]) => unknown>;

export function attachMethods(methods: MethodTable): void {
  for (const [name, fn] of Object.entries(methods)) {
    Object.defineProperty(Tensor.prototype, name, {
      value: function (this: Tensor, ...args: never[]) {
        return fn(this, ...args);
      },
      writable: true,
      configurable: true,
    });
  }
}
