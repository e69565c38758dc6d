/**
 * @file The slice of the machine that plugin discovery reads (environment, files, directories),
 * behind an interface so tests can hand discovery a fake one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";

export interface Host {
  readonly env: Readonly<Record<string, string | undefined>>;
  cwd(): string;
  homedir(): string;
  /** A regular file (or a link to one) exists at `path`. */
  isFile(path: string): boolean;
  /** Entry names in `dir`; [] when it does not exist or cannot be read. */
  readdir(dir: string): string[];
  /** File text; undefined when it does not exist or cannot be read. */
  readFile(path: string): string | undefined;
}

export const realHost: Host = {
  get env() {
    return process.env;
  },
  cwd: () => process.cwd(),
  homedir: () => homedir(),
  isFile(path) {
    try {
      return existsSync(path) && statSync(path).isFile();
    } catch {
      return false;
    }
  },
  readdir(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  readFile(path) {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  },
};
