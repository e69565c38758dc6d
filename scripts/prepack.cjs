#!/usr/bin/env node
// npm's prepack step: puts this machine's native addon and CPU plugin into prebuilds/<platform>-<arch>/
// with a prebuild.json marker, so the tarball installs without a compiler where they fit (see
// scripts/install.cjs, which checks the marker and loads them before using them).
//
// Where the binaries come from:
// - build/Release, when it holds both files built by cmake-js and they are newer than every build
//   input (native/ sources and headers minus tests, native/build.json, CMakeLists.txt,
//   scripts/native-sources.cjs): CI's `npm ci` has just built them, so packing costs seconds;
// - otherwise a tests-off cmake-js build in a cache folder under the system temp dir (incremental on
//   later packs), so a stale or test-configured developer build/ is never shipped or touched.
//
// `node scripts/prepack.cjs --clean` (npm's postpack step) removes the folder again, so the working
// tree does not keep a copy that could go stale or be committed by accident.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const install = require("./install.cjs");

const root = path.resolve(__dirname, "..");
const outDir = path.join(root, "prebuilds", install.platformDir);
const madeBy = "scripts/prepack.cjs";

/** Newest modification time of the files the native build reads (tests excluded). */
function newestInput() {
  let newest = 0;
  const visit = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        if (name === "tests" || name === "test" || /_test\.[^.]+$/.test(name)) continue;
        visit(path.join(p, name));
      }
    } else {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of ["native", "CMakeLists.txt", "scripts/native-sources.cjs"]) visit(path.join(root, p));
  return newest;
}

/** build/Release when it holds current cmake-js outputs, else why not. */
function currentBuild() {
  const dir = path.join(root, "build", "Release");
  const files = install.binaryNames.map((f) => path.join(dir, f));
  if (!files.every((f) => fs.existsSync(f))) return { reason: "build/Release has no addon and plugin" };
  const oldest = Math.min(...files.map((f) => fs.statSync(f).mtimeMs));
  if (oldest < newestInput()) return { reason: "build/Release is older than the native sources" };
  const load = install.tryLoad(files[0], files[1]);
  if (!load.ok) return { reason: `build/Release does not load: ${load.error}` };
  if (load.info.compiler !== "cmake-js") return { reason: `build/Release was built by ${load.info.compiler}, not cmake-js` };
  return { dir };
}

function sha256(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

async function pack() {
  const started = Date.now();
  const progress = install.progressReporter(process.stderr);
  let from = currentBuild();
  if (!from.dir) {
    const cache = path.join(os.tmpdir(), `torch-pjrt-prebuild-${crypto.createHash("sha1").update(root).digest("hex").slice(0, 8)}`);
    const status = await install.buildFromSource(progress, from.reason, cache);
    progress.close();
    if (status !== 0) return status;
    from = { dir: path.join(cache, "Release") };
  } else {
    progress.close();
  }
  const [addonFile, pluginFile] = install.binaryNames.map((f) => path.join(from.dir, f));
  const load = install.tryLoad(addonFile, pluginFile);
  if (!load.ok) {
    console.error(`prepack: the addon in ${from.dir} does not load: ${load.error}`);
    return 1;
  }

  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const files = {};
  for (const name of install.binaryNames) {
    fs.copyFileSync(path.join(from.dir, name), path.join(outDir, name));
    const file = path.join(outDir, name);
    files[name] = { bytes: fs.statSync(file).size, sha256: sha256(file) };
  }
  const newest = (prefix) =>
    install.binaryNames
      .map((name) => install.newestSymbolVersion(path.join(outDir, name), prefix))
      .reduce((a, b) => (a === null || (b !== null && install.compareVersions(b, a) > 0) ? b : a), null);
  const libc = install.runtimeLibc();
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const marker = {
    name: pkg.name,
    version: pkg.version,
    platform: process.platform,
    arch: process.arch,
    // The C library, and the newest glibc / libstdc++ symbol versions the binaries ask for: a system
    // with an older one cannot load them (install.cjs checks glibc, and its load test catches the rest).
    ...(process.platform === "linux" ? { libc: libc.libc } : {}),
    ...(libc.libc === "glibc" ? { glibc: newest("GLIBC"), glibcxx: newest("GLIBCXX") } : {}),
    napiVersion: load.info.napiVersion,
    pjrtApi: `${load.info.pjrtApiMajor}.${load.info.pjrtApiMinor}`,
    builtWith: { tool: load.info.compiler, node: process.version, from: path.relative(root, from.dir) || from.dir },
    madeBy,
    files,
  };
  fs.writeFileSync(path.join(outDir, install.markerName), `${JSON.stringify(marker, null, 2)}\n`);

  const verdict = install.checkPrebuild(outDir);
  if (!verdict.ok) {
    console.error(`prepack: the prebuilt folder fails its own check: ${verdict.reason}`);
    clean(); // npm skips postpack when prepack fails
    return 1;
  }
  const bytes = Object.values(files).reduce((n, f) => n + f.bytes, 0);
  console.error(
    `prepack: prebuilds/${install.platformDir} from ${marker.builtWith.from} ` +
      `(${(bytes / 1e6).toFixed(1)} MB, ${verdict.detail}) in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  return 0;
}

function clean() {
  const marker = path.join(outDir, install.markerName);
  try {
    if (JSON.parse(fs.readFileSync(marker, "utf8")).madeBy !== madeBy) return 0; // not ours: leave it
  } catch {
    return 0;
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  const parent = path.dirname(outDir);
  if (fs.existsSync(parent) && fs.readdirSync(parent).length === 0) fs.rmdirSync(parent);
  return 0;
}

if (process.argv.includes("--clean")) {
  process.exit(clean());
} else {
  pack().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`prepack: ${error.stack ?? error}`);
      process.exit(1);
    },
  );
}
