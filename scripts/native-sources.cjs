#!/usr/bin/env node
// Prints the source files of one native target from native/build.json, one per line (or joined by
// spaces with --gyp), so that CMakeLists.txt and binding.gyp build exactly the same list.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "native/build.json"), "utf8"));

function expand(pattern) {
  const dir = path.dirname(pattern);
  const base = path.basename(pattern);
  if (!base.includes("*")) return [pattern];
  const re = new RegExp("^" + base.replace(/\./g, "\\.").replace(/\*/g, ".*") + "$");
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs).filter((f) => re.test(f)).sort().map((f) => `${dir}/${f}`);
}

const [target, mode] = process.argv.slice(2);
const entry = manifest.targets[target];
if (!entry) {
  console.error(`native-sources: unknown target '${target}' (have: ${Object.keys(manifest.targets).join(", ")})`);
  process.exit(2);
}
const files = entry.sources.flatMap(expand);
process.stdout.write(mode === "--gyp" ? files.join(" ") : files.join(";"));
