/**
 * @file Finding plugin libraries on disk: our bundled CPU plugin, libtpu, and pip's CUDA plugin.
 * Pure functions of a Host, so tests can run them against a fake file system and environment.
 */
import { join } from "node:path";
import { cpuPluginFileName, findInBuildDirs } from "../runtime/paths.js";
import type { Host } from "./host.js";

export interface Discovery {
  /** The library to load; undefined when nothing was found. */
  path: string | undefined;
  /** How it was found: "explicit", "TORCH_PJRT_BUILD_DIR", "TPU_LIBRARY_PATH", "pip", "loader path", … */
  via: string;
  /** Every place looked at, in order (each one a path, sometimes with a note). */
  searched: string[];
}

export function findCpuPlugin(host: Host, packageDir?: string): Discovery {
  const found = findInBuildDirs(host, cpuPluginFileName, packageDir);
  const via = host.env.TORCH_PJRT_BUILD_DIR ? "TORCH_PJRT_BUILD_DIR" : found.prebuilt ? "prebuild" : "build";
  return { path: found.path, via, searched: found.searched };
}

const pythonDirPattern = /^python3\.\d+$/;

/** `prefix/lib/python3.X/<leaf>` for every Python 3 found under prefix/lib, newest first. */
function pythonLibDirs(host: Host, prefix: string, leaf: string): string[] {
  const lib = join(prefix, "lib");
  return host
    .readdir(lib)
    .filter((name) => pythonDirPattern.test(name))
    .sort((a, b) => Number(b.slice(8)) - Number(a.slice(8)))
    .map((name) => join(lib, name, leaf));
}

/** Places pip installs packages to, in the order we prefer them (the active environment first). */
export function sitePackagesDirs(host: Host): string[] {
  const dirs: string[] = [];
  const env = host.env;
  if (env.VIRTUAL_ENV) dirs.push(...pythonLibDirs(host, env.VIRTUAL_ENV, "site-packages"));
  if (env.CONDA_PREFIX) dirs.push(...pythonLibDirs(host, env.CONDA_PREFIX, "site-packages"));
  for (const entry of (env.PYTHONPATH ?? "").split(":")) if (entry) dirs.push(entry);
  dirs.push(...pythonLibDirs(host, join(host.cwd(), ".venv"), "site-packages"));
  dirs.push(...pythonLibDirs(host, join(host.homedir(), ".local"), "site-packages"));
  dirs.push(...pythonLibDirs(host, "/usr/local", "site-packages"));
  dirs.push(...pythonLibDirs(host, "/usr/local", "dist-packages"));
  dirs.push(...pythonLibDirs(host, "/usr", "site-packages"));
  dirs.push("/usr/lib/python3/dist-packages");
  return [...new Set(dirs)];
}

const archTriple: Record<string, string> = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" };

/** Folders the dynamic loader searches (LD_LIBRARY_PATH, then the usual system folders). */
export function loaderDirs(host: Host): string[] {
  const dirs = (host.env.LD_LIBRARY_PATH ?? "").split(":").filter(Boolean);
  const triple = archTriple[process.arch];
  dirs.push("/usr/local/lib", "/usr/lib", "/lib");
  if (triple) dirs.push(`/usr/lib/${triple}`, `/lib/${triple}`);
  return [...new Set(dirs)];
}

export const libtpuFileName = "libtpu.so";

/**
 * libtpu, in JAX's order: an explicit path, env TPU_LIBRARY_PATH, a pip-installed `libtpu`
 * package, then the loader path. An explicit path that does not exist is not found (no fallback);
 * a TPU_LIBRARY_PATH that does not exist is skipped, as JAX does.
 */
export function findLibtpu(host: Host, explicitPath?: string): Discovery {
  const searched: string[] = [];
  if (explicitPath !== undefined) {
    searched.push(explicitPath);
    return { path: host.isFile(explicitPath) ? explicitPath : undefined, via: "explicit", searched };
  }
  const fromEnv = host.env.TPU_LIBRARY_PATH;
  if (fromEnv) {
    if (host.isFile(fromEnv)) return { path: fromEnv, via: "TPU_LIBRARY_PATH", searched: [fromEnv] };
    searched.push(`${fromEnv} (TPU_LIBRARY_PATH; no such file)`);
  }
  for (const dir of sitePackagesDirs(host)) {
    const path = join(dir, "libtpu", libtpuFileName);
    searched.push(path);
    if (host.isFile(path)) return { path, via: "pip", searched };
  }
  for (const dir of loaderDirs(host)) {
    const path = join(dir, libtpuFileName);
    searched.push(path);
    if (host.isFile(path)) return { path, via: "loader path", searched };
  }
  return { path: undefined, via: "not found", searched };
}

/** The CUDA plugin from pip's jax-cuda12-pjrt / jax-cuda13-pjrt packages. */
export function findCudaPlugin(host: Host, explicitPath?: string): Discovery {
  if (explicitPath !== undefined) {
    return { path: host.isFile(explicitPath) ? explicitPath : undefined, via: "explicit", searched: [explicitPath] };
  }
  const searched: string[] = [];
  for (const dir of sitePackagesDirs(host)) {
    for (const pkg of ["xla_cuda13", "xla_cuda12"]) {
      const path = join(dir, "jax_plugins", pkg, "xla_cuda_plugin.so");
      searched.push(path);
      if (host.isFile(path)) return { path, via: "pip", searched };
    }
  }
  return { path: undefined, via: "not found", searched };
}
