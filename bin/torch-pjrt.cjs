#!/usr/bin/env node
// torch-pjrt command line: `info` (plugins, devices, versions, why a plugin is unusable) and
// `rebuild` (compile the native addon and the CPU plugin with cmake-js).
"use strict";
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
const usage = `usage: torch-pjrt <command>

commands:
  info [--json] [--no-load]   plugins found and where, devices, platform and StableHLO versions,
                              and why each unusable plugin cannot be used
  rebuild [cmake-js args]     build the native addon and the CPU plugin (cmake-js compile --out build)
  help                        this text`;

function loadLibrary() {
  try {
    return require(path.join(root, "dist", "index.cjs"));
  } catch (error) {
    console.error(`torch-pjrt: cannot load ${path.join(root, "dist", "index.cjs")}: ${error.message}`);
    console.error("Build the TypeScript first: npm run build:ts");
    process.exit(1);
  }
}

function jsonReplacer(_key, value) {
  return typeof value === "bigint" ? value.toString() : value;
}

function info(args) {
  const torch = loadLibrary();
  const load = !args.includes("--no-load");
  const plugins = torch.runtime.plugins({ load });
  let devices = [];
  let devicesError = null;
  if (load) {
    try {
      devices = torch.runtime.devices();
    } catch (error) {
      devicesError = error.message;
    }
  }
  if (args.includes("--json")) {
    console.log(JSON.stringify({ node: process.version, plugins, devices, devicesError }, jsonReplacer, 2));
    return;
  }
  const pkg = require(path.join(root, "package.json"));
  console.log(`torch-pjrt ${pkg.version} on node ${process.version} (${process.platform}-${process.arch})`);
  console.log("\nplugins:");
  for (const p of plugins) {
    const where = p.found ? `${p.path} (${p.via})` : "not found";
    console.log(`  ${p.name.padEnd(6)} ${p.status.padEnd(10)} ${where}`);
    const facts = [];
    if (p.apiVersion) facts.push(`PJRT API ${p.apiVersion.major}.${p.apiVersion.minor}`);
    if (p.platform) facts.push(`platform ${p.platform} ${p.platformVersion ?? ""}`.trim());
    if (p.stablehloVersion) facts.push(`StableHLO ${p.stablehloVersion}`);
    if (p.attributes.xla_version !== undefined) facts.push(`XLA ${String(p.attributes.xla_version)}`);
    if (p.numDevices !== null) facts.push(`${p.numDevices} device(s)`);
    if (p.tpuChips !== null) facts.push(`${p.tpuChips} TPU chip(s) on the PCI bus`);
    if (facts.length) console.log(`         ${facts.join(", ")}`);
    if (p.error) console.log(`         why not usable: ${p.error}`);
  }
  console.log("\ndevices:");
  if (!load) console.log("  (not listed with --no-load)");
  else if (devicesError) console.log(`  could not list devices: ${devicesError}`);
  else if (devices.length === 0) console.log("  none usable");
  for (const d of devices) {
    console.log(`  ${d.device.padEnd(8)} ${d.kind} (${d.platform} ${d.platformVersion}) ${d.description}`);
  }
}

function rebuild(args) {
  const cmakeJs = require.resolve("cmake-js/bin/cmake-js", { paths: [root] });
  const result = spawnSync(process.execPath, [cmakeJs, "compile", "--out", "build", ...args], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const [command = "help", ...rest] = process.argv.slice(2);
switch (command) {
  case "info":
    info(rest);
    break;
  case "rebuild":
    rebuild(rest);
    break;
  case "help":
  case "--help":
  case "-h":
    console.log(usage);
    break;
  default:
    console.error(`torch-pjrt: unknown command '${command}'\n\n${usage}`);
    process.exit(2);
}
