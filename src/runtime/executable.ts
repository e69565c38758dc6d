/**
 * @file Executable: a compiled StableHLO program bound to one device; run() takes and returns Tensors.
 */
import { type DType, dtypeFromPjrt } from "../dtype.js";
import { bufferOf, Tensor } from "../tensor.js";
import type { ResolvedDevice } from "./clients.js";
import { ArgumentError, callNative, DeviceError, DisposedError } from "./errors.js";
import type { BufferHandle, NativeBuffers, NativeExecutable } from "./native.js";

export interface OutputInfo {
  dtype: DType;
  shape: number[];
}

export class Executable {
  /** Canonical device string the program runs on. */
  readonly device: string;
  readonly outputs: readonly OutputInfo[];
  readonly fingerprint: string | null;
  #native: NativeExecutable | null;
  readonly #buffers: NativeBuffers;
  readonly #shapes: readonly (readonly number[])[];

  /** Created by torch.runtime.compile(). */
  constructor(native: NativeExecutable, target: ResolvedDevice) {
    this.#native = native;
    this.#buffers = target.client.buffers;
    this.device = target.name;
    this.fingerprint = native.fingerprint;
    const dims = native.outputDims;
    this.outputs = Object.freeze(native.outputTypes.map((type, i) => ({ dtype: dtypeFromPjrt(type), shape: [...(dims[i] ?? [])] })));
    this.#shapes = this.outputs.map((o) => Object.freeze([...o.shape]));
  }

  get numOutputs(): number {
    return this.outputs.length;
  }

  get isDisposed(): boolean {
    return this.#native === null;
  }

  #args(inputs: readonly Tensor[]): { native: NativeExecutable; buffers: BufferHandle[] } {
    const native = this.#native;
    if (native === null) throw new DisposedError(`Executable has been disposed: cannot run it (device ${this.device})`);
    if (!Array.isArray(inputs)) throw new ArgumentError("exe.run(inputs): inputs must be an array of tensors");
    const buffers = inputs.map((t, i) => {
      if (!(t instanceof Tensor)) throw new ArgumentError(`exe.run(inputs): inputs[${i}] is not a Tensor`);
      if (t.device !== this.device) {
        throw new DeviceError(`exe.run(inputs): inputs[${i}] is on ${t.device} but the executable was compiled for ${this.device}`);
      }
      return bufferOf(t);
    });
    return { native, buffers };
  }

  #wrap(outputs: BufferHandle[]): Tensor[] {
    return outputs.map((buffer, i) => new Tensor(buffer, this.#buffers, this.device, this.outputs[i]!.dtype, this.#shapes[i]!));
  }

  /**
   * Enqueues the program on the device and returns its outputs, new tensors the caller owns, at once:
   * reads of them wait for the run, and an error during the run surfaces there.
   */
  runSync(inputs: readonly Tensor[]): Tensor[] {
    const { native, buffers } = this.#args(inputs);
    return this.#wrap(callNative({ op: "run", device: this.device }, () => native.run(buffers)));
  }

  /** Enqueues the program; device work continues after this resolves, and reads of the outputs wait for it. */
  async run(inputs: readonly Tensor[]): Promise<Tensor[]> {
    return this.runSync(inputs);
  }

  /** Frees the executable. Idempotent. */
  dispose(): void {
    const native = this.#native;
    this.#native = null;
    native?.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
