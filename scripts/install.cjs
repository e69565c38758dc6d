#!/usr/bin/env node
// npm's install step. It does one of three things:
//
// 1. Uses the prebuilt addon and CPU plugin shipped in prebuilds/<platform>-<arch>/ (made by
//    scripts/prepack.cjs when the package is packed) when they fit this machine. Their prebuild.json
//    marker must match: same package version, platform, arch and C library, a glibc at least as new
//    as the newest GLIBC_ symbol version they ask for, an N-API version this Node offers (8, which is
//    stable across Node versions, so the Node version itself does not matter), and the files'
//    checksums. Then the addon must load and open the plugin in a child process (which also catches
//    an old libstdc++). Then install takes a second or two.
// 2. Otherwise builds both from source with cmake-js into build/ (tests off), printing what it builds
//    and how far it has got. Headers come from the node-api-headers package, so nothing is downloaded.
// 3. TORCH_PJRT_SKIP_BUILD=1 does nothing (e.g. when a build directory is supplied another way).
//
// TORCH_PJRT_BUILD_FROM_SOURCE=1 skips the prebuilt binaries and builds. TORCH_PJRT_JOBS=N sets the
// number of parallel compile jobs (default: the number of CPUs).
//
// npm hides a dependency's install output unless it fails (or `--foreground-scripts` is given), so
// while building, short progress lines also go to the terminal (/dev/tty) when there is one.
//
// scripts/prepack.cjs uses the exported helpers to write and check the prebuilt folder.
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const platformDir = `${process.platform}-${process.arch}`;
const markerName = "prebuild.json";
const manifest = JSON.parse(fs.readFileSync(path.join(root, "native", "build.json"), "utf8"));
/** The two files a prebuilt folder holds (the names come from native/build.json, as in src/runtime/paths.ts). */
const binaryNames = [`${manifest.targets.addon.name}.node`, `${manifest.targets.cpuPlugin.name}.so`];

function packageVersion() {
  return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
}

/** "2.36" → [2, 36]; compares version strings numerically. */
function compareVersions(a, b) {
  const pa = String(a).split(".").map(Number);
  const pb = String(b).split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** This process's C library: { libc: "glibc", version: "2.36" } or { libc: "musl" } (or another name). */
function runtimeLibc() {
  if (process.platform !== "linux") return { libc: process.platform };
  const glibc = process.report?.getReport?.().header?.glibcVersionRuntime;
  return glibc ? { libc: "glibc", version: glibc } : { libc: "musl" };
}

/** The newest symbol version `PREFIX_x.y[.z]` a shared object asks for (e.g. GLIBC_2.34), or null. */
function newestSymbolVersion(file, prefix) {
  const text = fs.readFileSync(file).toString("latin1");
  const re = new RegExp(`${prefix}_(\\d+\\.\\d+(?:\\.\\d+)?)\\0`, "g");
  let newest = null;
  for (const m of text.matchAll(re)) if (newest === null || compareVersions(m[1], newest) > 0) newest = m[1];
  return newest;
}

/**
 * Loads `addonPath` in a child process and opens the CPU plugin with it (dlopen + GetPjrtApi), so a
 * missing library, an old glibc/libstdc++ or an N-API mismatch shows up here, not in the user's
 * program. Returns { ok, info, error }.
 */
function tryLoad(addonPath, pluginPath) {
  const code =
    "const a = require(process.argv[1]); const info = a.buildInfo(); a.loadPlugin(process.argv[2]);" +
    "process.stdout.write(JSON.stringify(info));";
  const r = spawnSync(process.execPath, ["-e", code, path.resolve(addonPath), path.resolve(pluginPath)], { encoding: "utf8", timeout: 60_000 });
  if (r.status === 0) {
    try {
      return { ok: true, info: JSON.parse(r.stdout) };
    } catch {
      return { ok: false, error: `unexpected output: ${r.stdout.slice(0, 200)}` };
    }
  }
  const why = (r.stderr || r.error?.message || (r.signal ? `crashed (${r.signal})` : `exit ${r.status}`)).trim().split("\n");
  // node -e prints the source line and a caret first; the "Error: ..." line is what matters.
  return { ok: false, error: why.find((l) => /Error/.test(l)) ?? why[0] };
}

/** Whether `dir` holds a prebuilt addon + plugin usable here: { ok: true, detail } or { ok: false, reason }. */
function checkPrebuild(dir) {
  const rel = path.relative(root, dir) || dir;
  const missing = [markerName, ...binaryNames].filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length === 3) return { ok: false, reason: `no prebuilt binaries for ${platformDir}` };
  if (missing.length) return { ok: false, reason: `${rel} lacks ${missing.join(", ")}` };
  let marker;
  try {
    marker = JSON.parse(fs.readFileSync(path.join(dir, markerName), "utf8"));
  } catch (error) {
    return { ok: false, reason: `${rel}/${markerName} is unreadable (${error.message})` };
  }
  if (marker.platform !== process.platform || marker.arch !== process.arch) {
    return { ok: false, reason: `${rel} was built for ${marker.platform}-${marker.arch}` };
  }
  if (marker.version !== packageVersion()) {
    return { ok: false, reason: `${rel} was built for torch-pjrt ${marker.version}, this is ${packageVersion()}` };
  }
  const napi = Number(process.versions.napi ?? 0);
  if (!(marker.napiVersion <= napi)) {
    return { ok: false, reason: `${rel} needs N-API ${marker.napiVersion}, this Node offers ${napi}` };
  }
  const libc = runtimeLibc();
  if (marker.libc && marker.libc !== libc.libc) {
    return { ok: false, reason: `${rel} was built for ${marker.libc}, this system uses ${libc.libc}` };
  }
  if (marker.glibc && libc.version && compareVersions(libc.version, marker.glibc) < 0) {
    return { ok: false, reason: `${rel} needs glibc >= ${marker.glibc}, this system has ${libc.version}` };
  }
  for (const name of binaryNames) {
    const want = marker.files?.[name]?.sha256;
    const got = crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, name))).digest("hex");
    if (want !== got) return { ok: false, reason: `${rel}/${name} does not match its checksum in ${markerName}` };
  }
  const load = tryLoad(path.join(dir, binaryNames[0]), path.join(dir, binaryNames[1]));
  if (!load.ok) return { ok: false, reason: `${rel} does not load here: ${load.error}` };
  const needs = [marker.glibc && `glibc >= ${marker.glibc}`, `N-API ${marker.napiVersion}`].filter(Boolean).join(", ");
  return { ok: true, detail: needs };
}

/**
 * Progress lines: to `out` (stdout; prepack uses stderr, since `npm pack --json` prints its JSON on
 * stdout), and also to the terminal when npm is hiding the output.
 */
function progressReporter(out = process.stdout) {
  let tty = null;
  if (!out.isTTY && !process.env.CI) {
    try {
      tty = fs.openSync("/dev/tty", "w");
    } catch {
      tty = null; // no terminal (CI, a container): stdout only
    }
  }
  return {
    out,
    say(line) {
      out.write(`${line}\n`);
      if (tty !== null) {
        try {
          fs.writeSync(tty, `\r\x1b[K${line}\n`); // first clear npm's spinner from the line
        } catch {
          tty = null;
        }
      }
    },
    close() {
      if (tty !== null) fs.closeSync(tty);
    },
  };
}

function elapsed(since) {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** Runs a command, echoing its output to `out`, and calls onLine for each line. Resolves to the exit status. */
function run(args, out, onLine) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    for (const [stream, sink] of [
      [child.stdout, out],
      [child.stderr, out === process.stdout ? process.stderr : out],
    ]) {
      let pending = "";
      stream.on("data", (chunk) => {
        sink.write(chunk);
        pending += chunk.toString("utf8");
        const lines = pending.split("\n");
        pending = lines.pop();
        for (const line of lines) onLine(line);
      });
    }
    child.on("error", (error) => {
      console.error(`torch-pjrt: could not start ${args.join(" ")}: ${error.message}`);
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/**
 * cmake-js configure (always, so the tests-off setting takes effect even in an existing build
 * folder) then build. Not `cmake-js compile`: that skips configuring a configured folder and, when a
 * build fails, wipes the folder and builds everything again.
 */
async function buildFromSource(progress, why, outDir = "build") {
  const cmakeJs = require.resolve("cmake-js/bin/cmake-js", { paths: [root] });
  const jobs = Number(process.env.TORCH_PJRT_JOBS) || os.availableParallelism?.() || os.cpus().length || 1;
  const started = Date.now();
  progress.say(
    `torch-pjrt: ${why}; building the native addon and the CPU plugin from source ` +
      `(cmake-js, Release, ${jobs} job${jobs === 1 ? "" : "s"}; several minutes on a small machine) into ${path.resolve(root, outDir)}`,
  );
  let lastShown = -1;
  let lastTime = Date.now();
  const onLine = (line) => {
    // Ninja prints "[12/140] Building CXX object …", Make prints "[ 35%] Building CXX object …".
    const ninja = /^\[(\d+)\/(\d+)\]/.exec(line);
    const make = /^\[\s*(\d+)%\]/.exec(line);
    const pct = ninja ? Math.floor((100 * Number(ninja[1])) / Number(ninja[2])) : make ? Number(make[1]) : null;
    if (pct === null) return;
    const step = Math.floor(pct / 10) * 10;
    if (step > lastShown || Date.now() - lastTime > 60_000) {
      lastShown = Math.max(step, lastShown);
      lastTime = Date.now();
      progress.say(`torch-pjrt: building native code ${pct}% (${elapsed(started)})`);
    }
  };
  const steps = [
    ["configure", [cmakeJs, "configure", "--out", outDir, "--CDTORCH_PJRT_BUILD_TESTS=OFF"]],
    ["build", [cmakeJs, "build", "--out", outDir, "--parallel", String(jobs)]],
  ];
  for (const [name, args] of steps) {
    const status = await run(args, progress.out, onLine);
    if (status !== 0) {
      progress.say(
        `torch-pjrt: the native ${name} step failed after ${elapsed(started)}. It needs cmake >= 3.19 and a C++20 ` +
          "compiler (g++ >= 10); install them (Debian/Ubuntu: apt-get install cmake g++) and run `npx torch-pjrt rebuild`, " +
          "or set TORCH_PJRT_SKIP_BUILD=1 to install without the native code.",
      );
      return status;
    }
  }
  progress.say(`torch-pjrt: built the native addon and the CPU plugin in ${elapsed(started)}`);
  return 0;
}

async function main() {
  if (process.env.TORCH_PJRT_SKIP_BUILD === "1") {
    console.log("torch-pjrt: TORCH_PJRT_SKIP_BUILD=1, not building the native addon");
    return 0;
  }
  const progress = progressReporter();
  try {
    let why = "TORCH_PJRT_BUILD_FROM_SOURCE=1";
    if (process.env.TORCH_PJRT_BUILD_FROM_SOURCE !== "1") {
      const dir = path.join(root, "prebuilds", platformDir);
      const verdict = checkPrebuild(dir);
      if (verdict.ok) {
        console.log(`torch-pjrt: using the prebuilt addon and CPU plugin in prebuilds/${platformDir} (${verdict.detail})`);
        return 0;
      }
      why = verdict.reason;
    }
    return await buildFromSource(progress, why);
  } finally {
    progress.close();
  }
}

module.exports = {
  binaryNames,
  buildFromSource,
  checkPrebuild,
  compareVersions,
  markerName,
  newestSymbolVersion,
  platformDir,
  progressReporter,
  runtimeLibc,
  tryLoad,
};

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`torch-pjrt: install failed: ${error.stack ?? error}`);
      process.exit(1);
    },
  );
}
