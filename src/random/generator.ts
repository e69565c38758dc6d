/**
 * @file torch.Generator: a seed and a draw counter. Draw number c uses the key
 * jax.random.fold_in(jax.random.PRNGKey(seed), c), so no two draws of one generator share bits and
 * every draw can be reproduced in JAX. The key goes to the unit as a uint32[2] input tensor, so
 * the executable does not depend on the seed or the counter (one compile per op signature).
 */
import { randomBytes } from "node:crypto";
import { ArgumentError } from "../runtime/errors.js";
import { foldIn, type Key, seedKey } from "./threefry.js";

/** PyTorch's default seed (torch.initial_seed() in a fresh process). */
export const DEFAULT_SEED = 67280421310721n;

export interface GeneratorState {
  readonly seed: bigint;
  readonly counter: number;
}

function toSeed(seed: number | bigint): bigint {
  if (typeof seed === "bigint") return BigInt.asUintN(64, seed);
  if (typeof seed !== "number" || !Number.isSafeInteger(seed)) {
    throw new ArgumentError(`manualSeed: the seed must be an integer (a safe integer number or a bigint), got ${String(seed)}`);
  }
  return BigInt.asUintN(64, BigInt(seed));
}

export class Generator {
  #seed = DEFAULT_SEED;
  #key: Key = seedKey(DEFAULT_SEED);
  #counter = 0;

  /** `new torch.Generator()` starts from PyTorch's default seed; pass `{ seed }` to choose one. */
  constructor(options: { seed?: number | bigint } = {}) {
    for (const key of Object.keys(options)) {
      if (key !== "seed") throw new ArgumentError(`Generator: got an unknown option "${key}"; the only option is "seed"`);
    }
    if (options.seed !== undefined) this.manualSeed(options.seed);
  }

  /** Restarts the stream from `seed` (negative seeds wrap modulo 2^64, as in PyTorch). Returns this. */
  manualSeed(seed: number | bigint): this {
    this.#seed = toSeed(seed);
    this.#key = seedKey(this.#seed);
    this.#counter = 0;
    return this;
  }

  /** Seeds from the OS's entropy and returns the new seed. */
  seed(): bigint {
    const seed = randomBytes(8).readBigUInt64LE(0);
    this.manualSeed(seed);
    return seed;
  }

  /** The seed the stream started from. */
  initialSeed(): bigint {
    return this.#seed;
  }

  /** The seed and how many draws were made since (for saving and restoring). */
  getState(): GeneratorState {
    return { seed: this.#seed, counter: this.#counter };
  }

  setState(state: GeneratorState): this {
    if (!Number.isSafeInteger(state?.counter) || state.counter < 0) throw new ArgumentError("Generator.setState: expected { seed, counter } from getState()");
    this.manualSeed(state.seed);
    this.#counter = state.counter;
    return this;
  }

  /** The key of the next draw; advances the counter. */
  nextKey(): Key {
    if (this.#counter >= 2 ** 32) throw new ArgumentError("Generator: 2^32 draws since the last manualSeed; reseed it");
    return foldIn(this.#key, this.#counter++);
  }
}

/** The generator random ops use when none is given. */
export const defaultGenerator = new Generator();

/** torch.manualSeed(seed): reseeds the default generator. */
export function manualSeed(seed: number | bigint): Generator {
  return defaultGenerator.manualSeed(seed);
}

/** torch.seed(): reseeds the default generator from the OS's entropy. */
export function seed(): bigint {
  return defaultGenerator.seed();
}

/** torch.initialSeed(). */
export function initialSeed(): bigint {
  return defaultGenerator.initialSeed();
}
