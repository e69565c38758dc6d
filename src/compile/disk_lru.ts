/**
 * @file The persistent cache's size limit (torch.compiler.config.cacheMaxBytes): the entries of a
 * cache folder are kept least recently used last. An entry's modification time is its last use (a
 * load sets it to now, as writing does); access times are not used, as many file systems do not keep
 * them (noatime, relatime). After an entry is written, the oldest other entries are deleted until the
 * folder's entries fit the limit.
 *
 * Only files named like an entry are counted or deleted; anything else in the folder (a temporary file
 * being written, a user's file) is left alone. Other processes may load, write and delete entries at
 * the same time: a file that vanishes under us is simply no longer counted, never an error.
 */
import { readdirSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";

/** An entry's file name: its key in hex. */
export const entryName = (key: Buffer): string => `${key.toString("hex")}.pjrt`;
const isEntryName = (name: string): boolean => /^[0-9a-f]{64}\.pjrt$/.test(name);

/** Marks an entry as used now. */
export function touch(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // deleted meanwhile, or a read-only folder: the entry just keeps its age
  }
}

/**
 * Deletes the least recently used entries of `dir` until its entries take at most `maxBytes`, never
 * the entry named `keep` (the one just written).
 */
export function trim(dir: string, maxBytes: number, keep: string): void {
  if (maxBytes === Infinity) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  let total = 0;
  const others: { name: string; size: number; used: number }[] = [];
  for (const name of names) {
    if (!isEntryName(name)) continue;
    try {
      const s = statSync(join(dir, name));
      if (!s.isFile()) continue;
      total += s.size;
      if (name !== keep) others.push({ name, size: s.size, used: s.mtimeMs });
    } catch {
      // deleted meanwhile
    }
  }
  others.sort((a, b) => a.used - b.used || (a.name < b.name ? -1 : 1));
  for (const { name, size } of others) {
    if (total <= maxBytes) return;
    try {
      unlinkSync(join(dir, name));
      total -= size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") total -= size; // another process deleted it
    }
  }
}
