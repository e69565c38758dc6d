/**
 * @file The line of user code that called into the library: the first stack frame outside
 * torch-pjrt's own files (its bundle in dist/, or src/ when run from source).
 */
import { fileURLToPath } from "node:url";

const fileOf = (frame: string): string | undefined => {
  const m = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?$/.exec(frame.trim());
  if (m === null) return undefined;
  return m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
};

/** Files under this prefix are the library's own. */
function libraryPrefix(): string | undefined {
  const here = new Error().stack?.split("\n").slice(1).map(fileOf).find((f) => f !== undefined);
  if (here === undefined) return undefined;
  const src = here.lastIndexOf("/src/");
  if (src >= 0) return here.slice(0, src + 5);
  const dist = here.lastIndexOf("/dist/");
  return dist >= 0 ? here.slice(0, dist + 6) : here;
}

const prefix = libraryPrefix();

/** "file:line:column" of the innermost user frame on the current stack, if one is found. */
export function userFrame(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 64;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  for (const line of stack.split("\n").slice(1)) {
    const file = fileOf(line);
    if (file === undefined || file.startsWith("node:") || (prefix !== undefined && file.startsWith(prefix))) continue;
    if (file.includes("/node_modules/")) continue;
    const m = /((?:file:\/\/)?\/[^()]+:\d+:\d+)\)?$/.exec(line.trim());
    return m === null ? line.trim() : m[1]!.replace(/^file:\/\//, "");
  }
  return undefined;
}
