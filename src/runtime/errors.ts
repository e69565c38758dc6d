/**
 * @file Typed errors, and the ONE place that turns a native failure (an Error carrying `nativeCode`
 * and `nativeCall`, see native.ts) into one of them.
 */
import type { NativeErrorFields } from "./native.js";
import { dumpModule } from "./dump.js";

/** PJRT_Error_Code names (absl status codes), plus the addon's own two codes. */
export const errorCodeNames: Readonly<Record<number, string>> = {
  1: "CANCELLED",
  2: "UNKNOWN",
  3: "INVALID_ARGUMENT",
  4: "DEADLINE_EXCEEDED",
  5: "NOT_FOUND",
  6: "ALREADY_EXISTS",
  7: "PERMISSION_DENIED",
  8: "RESOURCE_EXHAUSTED",
  9: "FAILED_PRECONDITION",
  10: "ABORTED",
  11: "OUT_OF_RANGE",
  12: "UNIMPLEMENTED",
  13: "INTERNAL",
  14: "UNAVAILABLE",
  15: "DATA_LOSS",
  16: "UNAUTHENTICATED",
  1001: "PLUGIN_LOAD_ERROR",
  1002: "USAGE_ERROR",
};

export const nativeCodes = { pluginLoad: 1001, usage: 1002 } as const;

export function errorCodeName(code: number): string {
  return errorCodeNames[code] ?? `CODE_${code}`;
}

/** Base class of every error this library throws on purpose. */
export class TorchError extends Error {
  override name = "TorchError";
}

export class ShapeError extends TorchError {
  override name = "ShapeError";
}

export class DTypeError extends TorchError {
  override name = "DTypeError";
}

/** A bad device string, an unknown device type, or a device index out of range. */
export class DeviceError extends TorchError {
  override name = "DeviceError";
}

/** A bad argument or options object (caught in TypeScript, or by the addon before any PJRT call). */
export class ArgumentError extends TorchError {
  override name = "ArgumentError";
}

/** A valid request the library does not support yet (no API raises it at present). */
export class NotSupportedError extends TorchError {
  override name = "NotSupportedError";
}

/** The native addon is missing or cannot be loaded. */
export class AddonError extends TorchError {
  override name = "AddonError";
}

/** A tensor or executable used after dispose(). */
export class DisposedError extends TorchError {
  override name = "DisposedError";
}

export type PluginErrorReason =
  | "not-found" // no library file for the plugin
  | "load-failed" // dlopen / GetPjrtApi / version check failed
  | "no-device" // loaded, but there is no chip (libtpu on a machine without a TPU)
  | "busy" // another process holds the chips
  | "client-failed" // PJRT_Client_Create failed for another reason
  | "bad-options" // create options the plugin does not accept (caught before any native call)
  | "in-use"; // re-registering a plugin whose client already exists

export interface PluginErrorDetails {
  plugin: string;
  reason: PluginErrorReason;
  path?: string | undefined;
  searched?: readonly string[] | undefined;
  nativeCode?: number | undefined;
  nativeCall?: string | undefined;
}

/** A PJRT plugin that is missing, fails to load, or cannot create a client. */
export class PluginError extends TorchError {
  override name = "PluginError";
  readonly plugin: string;
  readonly reason: PluginErrorReason;
  readonly path: string | undefined;
  /** Where discovery looked, in order (for "not-found"). */
  readonly searched: readonly string[];
  readonly nativeCode: number | undefined;
  readonly nativeCall: string | undefined;

  constructor(message: string, details: PluginErrorDetails) {
    super(message);
    this.plugin = details.plugin;
    this.reason = details.reason;
    this.path = details.path;
    this.searched = details.searched ?? [];
    this.nativeCode = details.nativeCode;
    this.nativeCall = details.nativeCall;
  }
}

/** The plugin rejected a StableHLO module. `module` holds the text that was sent. */
export class CompileError extends TorchError {
  override name = "CompileError";
  readonly device: string;
  readonly pluginMessage: string;
  readonly module: string;
  /** Where the module was written (env TORCH_PJRT_DUMP_DIR), if it was. */
  readonly dumpPath: string | undefined;
  readonly code: number;
  readonly codeName: string;

  constructor(
    message: string,
    details: { device: string; pluginMessage: string; module: string; dumpPath?: string | undefined; code: number },
  ) {
    super(message);
    this.device = details.device;
    this.pluginMessage = details.pluginMessage;
    this.module = details.module;
    this.dumpPath = details.dumpPath;
    this.code = details.code;
    this.codeName = errorCodeName(details.code);
  }
}

/**
 * torch.compile met something it cannot put in a graph (a host read such as `item()`, a transfer
 * between devices, a conversion in place): `what` names it and `userFrame` the line of user code.
 */
export class GraphBreakError extends TorchError {
  override name = "GraphBreakError";
  constructor(
    message: string,
    readonly what: string,
    readonly userFrame: string | undefined,
  ) {
    super(message);
  }
}

/** A PJRT call failed at run time (transfer, execute, read back). */
export class DeviceRuntimeError extends TorchError {
  override name = "DeviceRuntimeError";
  readonly code: number;
  readonly codeName: string;
  readonly call: string;

  constructor(message: string, details: { code: number; call: string }) {
    super(message);
    this.code = details.code;
    this.codeName = errorCodeName(details.code);
    this.call = details.call;
  }
}

/** A device ran out of memory (RESOURCE_EXHAUSTED at run time); the message names what could not be allocated. */
export class OutOfMemoryError extends DeviceRuntimeError {
  override name = "OutOfMemoryError";
}

export function isNativeError(error: unknown): error is Error & NativeErrorFields {
  return (
    error instanceof Error &&
    typeof (error as Partial<NativeErrorFields>).nativeCode === "number" &&
    typeof (error as Partial<NativeErrorFields>).nativeCall === "string"
  );
}

/** What the caller was doing when the native error happened; it decides the error's type. */
export interface NativeErrorContext {
  /** Our step: "loadPlugin", "createClient", "compile", "compileFor", "bufferFromHost", "toHost", "run", … */
  op: string;
  plugin?: string;
  path?: string;
  device?: string;
  /** StableHLO text, for compile steps. */
  module?: string;
  /** The PCI scan found no TPU chip (libtpu only). */
  noTpuChip?: boolean;
  /** The plugin's kind ("tpu", "cuda", …); by default "tpu" for the plugin named tpu. */
  kind?: string;
}

export const noTpuMessage = "libtpu loaded but this machine has no TPU";

const looksLikeNoDevice = (message: string): boolean =>
  /no (\w+ )?devices? (was |were )?found|no tpu|TPU initialization failed|CUDA_ERROR_NO_DEVICE/i.test(message);

/** Turns a native failure into a typed error; anything else is returned unchanged. */
export function mapNativeError(error: unknown, context: NativeErrorContext): unknown {
  if (!isNativeError(error)) return error;
  const { nativeCode: code, nativeCall: call } = error;
  const plugin = context.plugin ?? "?";
  const where = `${errorCodeName(code)} in ${call}`;
  const native = { nativeCode: code, nativeCall: call };

  if (code === nativeCodes.pluginLoad) {
    return new PluginError(
      `could not load PJRT plugin '${plugin}'${context.path ? ` from ${context.path}` : ""}: ${error.message}` +
        `\n(the file must be a PJRT plugin exporting GetPjrtApi with a compatible API version)`,
      { plugin, reason: "load-failed", path: context.path, ...native },
    );
  }
  if (code === nativeCodes.usage) {
    return new ArgumentError(`${context.op}: ${error.message} (${where})`);
  }
  if (context.op === "createClient") {
    if (code === 10 && /already in use/i.test(error.message)) {
      return new PluginError(
        `plugin '${plugin}': ${error.message}\n(another process holds the chips; stop it, or remove /tmp/libtpu_lockfile if it is stale)`,
        { plugin, reason: "busy", path: context.path, ...native },
      );
    }
    const tpu = (context.kind ?? (plugin === "tpu" ? "tpu" : undefined)) === "tpu";
    if ((tpu && context.noTpuChip) || looksLikeNoDevice(error.message)) {
      const message = tpu
        ? `${noTpuMessage} (libtpu at ${context.path ?? "?"} said: ${error.message}). ` +
          `Use device "cpu", or torch.runtime.compileFor("tpu", …) to compile for a TPU topology without a chip.`
        : `plugin '${plugin}' loaded but found no device on this machine (${context.path ?? "?"} said: ${error.message}). Use device "cpu".`;
      return new PluginError(message, { plugin, reason: "no-device", path: context.path, ...native });
    }
    return new PluginError(`plugin '${plugin}' could not create a client: ${error.message} (${where})`, {
      plugin,
      reason: "client-failed",
      path: context.path,
      ...native,
    });
  }
  if ((context.op === "compile" || context.op === "compileFor") && context.module !== undefined) {
    const device = context.device ?? plugin;
    const dumpPath = dumpModule(context.module, "failed");
    const how = dumpPath
      ? `the module was written to ${dumpPath}`
      : "read error.module for the StableHLO text, or set TORCH_PJRT_DUMP_DIR=<dir> to write failing modules there";
    return new CompileError(`${device} could not compile the StableHLO module: ${error.message} (${where}); ${how}`, {
      device,
      pluginMessage: error.message,
      module: context.module,
      dumpPath,
      code,
    });
  }
  const on = context.device ? ` on ${context.device}` : "";
  const message = `${context.op}${on} failed: ${error.message} (${where})`;
  if (code === 8) return new OutOfMemoryError(`${message}; dispose tensors no longer needed, or use smaller shapes`, { code, call });
  return new DeviceRuntimeError(message, { code, call });
}

/** Runs a native call and rethrows its failure as a typed error. */
export function callNative<T>(context: NativeErrorContext, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw mapNativeError(error, context);
  }
}

/** The async form of callNative. */
export async function callNativeAsync<T>(context: NativeErrorContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw mapNativeError(error, context);
  }
}
