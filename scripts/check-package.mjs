#!/usr/bin/env node
// The package as a user installs it (`npm run check:package`; .ci/run runs it too):
//
//  1. tarball      `npm pack` (its prepack step copies the current build/Release into prebuilds/),
//                  then what the tarball holds: dist without source maps, bin, the prebuilt addon +
//                  CPU plugin, and the native sources the fallback build needs; no tests, fixtures
//                  or test helpers. Every source native/build.json names and every #include is there.
//  2. install      into an ESM app ("type": "module") and a CommonJS app, from the npm cache when it
//                  can: the install script must take the prebuilt path (no build/ folder), quickly.
//  3. runtime      a small program creates tensors and runs ops on the CPU device in each app
//                  (import and require), checks the values, and that the prebuilt files were loaded.
//  4. types        TypeScript 5.9 strict (the repo's own tsc) on test/package/consumer.mts and
//                  must-not-compile.mts, installed-package types only, in four modes: NodeNext ESM
//                  (.mts), NodeNext CJS (.cts), Bundler, and CommonJS with node10 resolution.
//  5. source build the installed package's CMake project configures from the shipped files.
//
// Packing runs npm's prepare step (tsup, so dist/ is rebuilt) and puts prebuilds/ in the working tree
// until postpack removes it; everything else happens in a scratch folder under the system temp dir.
// Ends with "package check: N passed, N failed". Options: --keep (keep the scratch folder),
// --from-source (also install with TORCH_PJRT_BUILD_FROM_SOURCE=1 and time the source build: minutes).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const { binaryNames, markerName, platformDir } = require("./install.cjs");
const args = new Set(process.argv.slice(2));
const installLimitS = Number(process.env.TORCH_PJRT_CHECK_INSTALL_LIMIT_S ?? 120);
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), "torch-pjrt-package-"));
const results = [];

// Settings that would redirect the install script or the loader away from what is being checked.
const env = { ...process.env };
for (const k of ["TORCH_PJRT_BUILD_DIR", "TORCH_PJRT_SKIP_BUILD", "TORCH_PJRT_BUILD_FROM_SOURCE", "npm_config_ignore_scripts"]) {
  delete env[k];
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
function log(line) {
  console.log(`[check-package ${seconds(Date.now() - started)}] ${line}`);
}

/** Runs a command; returns { status, out (stdout + stderr), ms }. */
function sh(cmd, cmdArgs, opts = {}) {
  const t0 = Date.now();
  const r = spawnSync(cmd, cmdArgs, { encoding: "utf8", env, maxBuffer: 256 * 1024 * 1024, ...opts });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? `\n${r.error.message}` : ""}`;
  return { status: r.status ?? 1, out, ms: Date.now() - t0 };
}

function tail(text, n = 30) {
  return text.trimEnd().split("\n").slice(-n).map((l) => `    ${l}`).join("\n");
}

/** Records one test: fn returns nothing (pass) or throws / returns a list of problems (fail). */
function test(name, fn) {
  const t0 = Date.now();
  let problems;
  try {
    problems = fn() ?? [];
  } catch (error) {
    problems = [error.message];
  }
  const ok = problems.length === 0;
  results.push({ name, ok });
  console.log(`${ok ? "PASS" : "FAIL"} ${name} (${seconds(Date.now() - t0)})`);
  for (const p of problems) console.log(`  - ${p.replace(/\n/g, "\n    ")}`);
  return ok;
}

// --- 1. the tarball ---------------------------------------------------------------------------------
let tarball;
let entries = [];
test("tarball: npm pack, then only what a user runs and the source build needs", () => {
  log(`npm pack into ${work}`);
  const packed = sh("npm", ["pack", "--pack-destination", work], { cwd: root });
  if (packed.status !== 0) return [`npm pack failed:\n${tail(packed.out)}`];
  const prepack = packed.out.split("\n").find((l) => l.startsWith("prepack:"));
  log(`npm pack took ${seconds(packed.ms)}${prepack ? ` (${prepack})` : ""}`);
  tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
  if (!tarball) return ["npm pack made no .tgz"];
  tarball = join(work, tarball);
  const listing = sh("tar", ["-tzvf", tarball]);
  if (listing.status !== 0) return [`tar -t failed:\n${tail(listing.out)}`];
  // "-rw-r--r-- 0/0  6038 1985-10-26 08:15 package/CMakeLists.txt"
  entries = listing.out
    .trim()
    .split("\n")
    .map((line) => {
      const m = /^\S+\s+\S+\s+(\d+)\s+\S+\s+\S+\s+package\/(.+)$/.exec(line);
      return m ? { path: m[2], size: Number(m[1]) } : null;
    })
    .filter(Boolean);
  const paths = new Set(entries.map((e) => e.path));
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  log(
    `${basename(tarball)}: ${entries.length} files, ${(statSync(tarball).size / 1e3).toFixed(0)} kB packed, ` +
      `${(unpacked / 1e6).toFixed(2)} MB unpacked; largest: ` +
      [...entries].sort((a, b) => b.size - a.size).slice(0, 4).map((e) => `${e.path} ${(e.size / 1e3).toFixed(0)} kB`).join(", "),
  );

  const problems = [];
  const required = [
    "package.json",
    "README.md",
    "dist/index.js",
    "dist/index.cjs",
    "dist/index.d.ts",
    "dist/index.d.cts",
    "bin/torch-pjrt.cjs",
    "CMakeLists.txt",
    "native/build.json",
    "scripts/install.cjs",
    "scripts/native-sources.cjs",
    ...[...binaryNames, markerName].map((f) => `prebuilds/${platformDir}/${f}`),
  ];
  for (const p of required) if (!paths.has(p)) problems.push(`missing ${p}`);
  const forbidden = [
    [/^dist\/.*\.map$/, "a source map"],
    [/(^|\/)tests?\//, "a test folder"],
    [/_test\.[^/]+$/, "a test source"],
    [/\.(test|spec)\.[^/]+$/, "a test"],
    [/^scripts\/(?!install\.cjs$|native-sources\.cjs$)/, "a repo script (fixtures, oracles, CI)"],
    [/^native\/.*\.(mjs|py)$/, "a native test helper script"],
    [/^(src|benchmarks|examples|\.ci)\//, "repo-only sources"],
  ];
  for (const { path } of entries) {
    const hit = forbidden.find(([re]) => re.test(path));
    if (hit) problems.push(`ships ${path} (${hit[1]})`);
  }

  // The fallback source build: every source the manifest names, and every quoted #include.
  const pkgRoot = join(work, "unpacked");
  const untar = sh("tar", ["-xzf", tarball, "-C", work]);
  if (untar.status !== 0) return [...problems, `tar -x failed:\n${tail(untar.out)}`];
  rmSync(pkgRoot, { recursive: true, force: true });
  cpSync(join(work, "package"), pkgRoot, { recursive: true });
  rmSync(join(work, "package"), { recursive: true, force: true });
  const manifest = JSON.parse(readFileSync(join(pkgRoot, "native", "build.json"), "utf8"));
  for (const target of Object.keys(manifest.targets)) {
    const listed = sh(process.execPath, [join(pkgRoot, "scripts", "native-sources.cjs"), target], { cwd: pkgRoot });
    const files = listed.out.split(";").filter(Boolean);
    if (listed.status !== 0 || files.length === 0) problems.push(`native-sources.cjs ${target} lists nothing from the tarball`);
  }
  const nativeFiles = entries.map((e) => e.path).filter((p) => p.startsWith("native/"));
  for (const file of nativeFiles.filter((p) => /\.(cc|h|inc)$/.test(p))) {
    const text = readFileSync(join(pkgRoot, file), "utf8");
    for (const [, inc] of text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)) {
      const sameDir = posix.normalize(`${dirname(file)}/${inc}`);
      if (!paths.has(sameDir) && !nativeFiles.some((p) => p.endsWith(`/${inc}`))) {
        problems.push(`${file} includes "${inc}", which the tarball lacks`);
      }
    }
  }
  return problems;
});
if (!tarball) finish();

// --- 2. install into scratch apps --------------------------------------------------------------------
const typesNode = JSON.parse(readFileSync(join(root, "node_modules", "@types", "node", "package.json"), "utf8")).version;
const apps = {
  esm: { dir: join(work, "esm-app"), type: "module" },
  cjs: { dir: join(work, "cjs-app"), type: "commonjs" },
};

function installApp(app, extraEnv = {}) {
  cpSync(join(root, "test", "package"), app.dir, { recursive: true });
  writeFileSync(
    join(app.dir, "package.json"),
    `${JSON.stringify({ name: basename(app.dir), private: true, type: app.type, devDependencies: { "@types/node": typesNode } }, null, 2)}\n`,
  );
  return sh("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--foreground-scripts"], {
    cwd: app.dir,
    env: { ...env, ...extraEnv },
  });
}

for (const [kind, app] of Object.entries(apps)) {
  test(`install (${kind} app): takes the prebuilt path, under ${installLimitS}s`, () => {
    const r = installApp(app);
    app.installed = r.status === 0;
    log(`npm install ${basename(tarball)} in ${basename(app.dir)}: ${seconds(r.ms)}`);
    if (r.status !== 0) return [`npm install failed:\n${tail(r.out)}`];
    const problems = [];
    const ours = r.out.split("\n").filter((l) => l.startsWith("torch-pjrt:"));
    if (!ours.some((l) => l.includes("using the prebuilt addon"))) {
      problems.push(`the install script did not take the prebuilt path:\n${tail(ours.join("\n") || r.out, 15)}`);
    }
    if (existsSync(join(app.dir, "node_modules", "torch-pjrt", "build"))) problems.push("the install made a build/ folder (a source build)");
    if (r.ms > installLimitS * 1000) problems.push(`took ${seconds(r.ms)} (limit ${installLimitS}s)`);
    const warnings = r.out.split("\n").filter((l) => /warning:/i.test(l));
    if (warnings.length) problems.push(`the install printed warnings:\n${tail(warnings.join("\n"), 10)}`);
    return problems;
  });
}

// --- 3. a program on the CPU device ------------------------------------------------------------------
function checkProgram(app, file, expectDir) {
  if (!app.installed) return ["not installed"];
  const r = sh(process.execPath, [file], { cwd: app.dir });
  if (r.status !== 0) return [`node ${file} failed:\n${tail(r.out)}`];
  let where;
  try {
    where = JSON.parse(r.out.trim().split("\n").pop());
  } catch {
    return [`node ${file} printed no result:\n${tail(r.out)}`];
  }
  log(`${basename(app.dir)}/${file}: addon ${where.addon}, CPU plugin ${where.cpuPlugin} (${where.via})`);
  const dir = join(app.dir, "node_modules", "torch-pjrt", expectDir);
  const problems = [];
  for (const [what, path] of [
    ["addon", where.addon],
    ["CPU plugin", where.cpuPlugin],
  ]) {
    if (!path || dirname(path) !== dir) problems.push(`the ${what} came from ${path}, not ${dir}`);
  }
  return problems;
}
test("runtime (esm app, import): tensors and ops on the CPU device give the right values", () =>
  checkProgram(apps.esm, "program.mjs", join("prebuilds", platformDir)),
);
test("runtime (cjs app, require): tensors and ops on the CPU device give the right values", () =>
  checkProgram(apps.cjs, "program.cjs", join("prebuilds", platformDir)),
);

// --- 4. the published types ----------------------------------------------------------------------------
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const tsVersion = JSON.parse(readFileSync(join(root, "node_modules", "typescript", "package.json"), "utf8")).version;
// The NodeNext modes read index.d.ts and index.d.cts and check them as well (skipLibCheck false, ~10 s
// each, mostly @types/node); Bundler and node10 resolution read the same files again, so they skip that.
const modes = [
  { name: "NodeNext, ESM (.mts)", app: apps.esm, ext: ".mts", options: { module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: false } },
  { name: "NodeNext, CJS (.cts)", app: apps.cjs, ext: ".cts", options: { module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: false } },
  { name: "Bundler", app: apps.esm, ext: ".ts", options: { module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true } },
  {
    name: "CommonJS (node10)",
    app: apps.cjs,
    ext: ".ts",
    options: { module: "CommonJS", moduleResolution: "Node10", esModuleInterop: true, skipLibCheck: true },
  },
];
const distTypes = existsSync(join(work, "unpacked", "dist", "index.d.ts")) ? readFileSync(join(work, "unpacked", "dist", "index.d.ts"), "utf8") : "";
for (const mode of modes) {
  test(`types (TypeScript ${tsVersion} strict, ${mode.name}): consumer compiles, must-not-compile lines fail`, () => {
    if (!mode.app.installed) return ["not installed"];
    if (!tsVersion.startsWith("5.9.")) return [`expected TypeScript 5.9.x in the repo's node_modules, found ${tsVersion}`];
    const slug = mode.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "").toLowerCase();
    const files = ["consumer", "must-not-compile"].map((f) => {
      const name = `${f}.${slug}${mode.ext}`;
      cpSync(join(root, "test", "package", `${f}.mts`), join(mode.app.dir, name));
      return name;
    });
    const config = {
      compilerOptions: {
        target: "ES2022",
        strict: true,
        noEmit: true,
        types: ["node"],
        ...mode.options,
      },
      files,
    };
    const configFile = `tsconfig.${slug}.json`;
    writeFileSync(join(mode.app.dir, configFile), `${JSON.stringify(config, null, 2)}\n`);
    const r = sh(process.execPath, [tsc, "-p", configFile, "--pretty", "false"], { cwd: mode.app.dir });
    if (r.status === 0) return [];
    // Long types (Tensor<"int32" | "uint32" | …>) make a line unreadable: elide their arguments.
    const diags = r.out
      .split("\n")
      .filter((l) => /error TS\d+/.test(l))
      .map((l) => l.replace(/(\w)<[^'<>]*>/g, "$1<…>"))
      .map((l) => (l.length > 240 ? `${l.slice(0, 240)}…` : l));
    const byCode = {};
    for (const d of diags) {
      const code = /error (TS\d+)/.exec(d)[1];
      byCode[code] = (byCode[code] ?? 0) + 1;
    }
    const problems = [
      `tsc -p ${configFile} in ${mode.app.dir}: ${diags.length} errors (${Object.entries(byCode).map(([c, n]) => `${n}× ${c}`).join(", ")})`,
      diags.length ? diags.slice(0, 12).join("\n") + (diags.length > 12 ? `\n… and ${diags.length - 12} more` : "") : tail(r.out, 12),
    ];
    const augmentation = /declare module "(\.\.?\/[^"]+)"/.exec(distTypes);
    if (augmentation && diags.some((d) => /TS2339/.test(d))) {
      problems.push(
        `dist/index.d.ts augments "${augmentation[1]}", a path that does not exist next to it in the package, so ` +
          "the Tensor methods it declares never reach users (TS2339 above)",
      );
    }
    return problems;
  });
}

// --- 5. the fallback source build configures -----------------------------------------------------------
test("source build: the installed package's CMake project configures and plans the addon and plugin only", () => {
  if (!apps.esm.installed) return ["not installed"];
  const pkgDir = join(apps.esm.dir, "node_modules", "torch-pjrt");
  const cmakeJs = join(apps.esm.dir, "node_modules", "cmake-js", "bin", "cmake-js");
  const r = sh(process.execPath, [cmakeJs, "configure", "-d", pkgDir, "--out", join(work, "configure"), "--CDTORCH_PJRT_BUILD_TESTS=OFF"], {
    cwd: pkgDir,
  });
  log(`cmake-js configure of the installed package: ${seconds(r.ms)}`);
  if (r.status !== 0) return [`cmake-js configure failed:\n${tail(r.out)}`];
  const problems = [];
  const warnings = r.out.split("\n").filter((l) => /CMake Warning|warning:/i.test(l));
  if (warnings.length) problems.push(`configure warned:\n${tail(warnings.join("\n"), 10)}`);
  // A dry run of the build (ninja -n / make -n): every input exists, and only libraries are linked.
  const plan = sh("cmake", ["--build", join(work, "configure"), "--", "-n"]);
  if (plan.status !== 0) return [...problems, `the build's dry run failed:\n${tail(plan.out)}`];
  const executables = plan.out.split("\n").filter((l) => /Linking \S+ executable/.test(l));
  if (executables.length) problems.push(`the install build would link ${executables.length} programs (tests?):\n${tail(executables.join("\n"), 5)}`);
  for (const name of binaryNames) if (!plan.out.includes(name)) problems.push(`the build's dry run never makes ${name}`);
  return problems;
});

// --- optional: a real source build -------------------------------------------------------------------
if (args.has("--from-source")) {
  const app = { dir: join(work, "source-app"), type: "module" };
  test("install with TORCH_PJRT_BUILD_FROM_SOURCE=1: builds the addon and plugin only, without warnings", () => {
    const r = installApp(app, { TORCH_PJRT_BUILD_FROM_SOURCE: "1" });
    app.installed = r.status === 0;
    log(`npm install with TORCH_PJRT_BUILD_FROM_SOURCE=1: ${seconds(r.ms)}`);
    if (r.status !== 0) return [`npm install failed:\n${tail(r.out)}`];
    const ours = r.out.split("\n").filter((l) => l.startsWith("torch-pjrt:"));
    log(`its progress lines:\n${ours.map((l) => `    ${l}`).join("\n")}`);
    const problems = [];
    const steps = /\[\d+\/(\d+)\]/.exec(r.out);
    if (steps) log(`ninja steps: ${steps[1]}`);
    const outputs = readdirSync(join(app.dir, "node_modules", "torch-pjrt", "build", "Release"));
    if (outputs.sort().join() !== [...binaryNames].sort().join()) problems.push(`build/Release holds ${outputs.join(", ")}`);
    const warnings = r.out.split("\n").filter((l) => /warning:/i.test(l));
    if (warnings.length) problems.push(`the build printed ${warnings.length} warning(s):\n${tail(warnings.join("\n"), 10)}`);
    return problems;
  });
  test("runtime (source-built app): loads build/Release", () => checkProgram(app, "program.mjs", join("build", "Release")));
}

finish();

function finish() {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  if (args.has("--keep")) console.log(`scratch folder kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
  if (failed && !args.has("--keep")) console.log("(rerun with --keep to look at the scratch apps)");
  console.log(`package check: ${passed} passed, ${failed} failed (${seconds(Date.now() - started)})`);
  process.exit(failed === 0 ? 0 : 1);
}
