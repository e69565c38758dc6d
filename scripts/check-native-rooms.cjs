#!/usr/bin/env node
// Checks the rooms of the CPU plugin (native/cpu/README.md) and fails naming every include that breaks
// them:
//   - every source file sits in a room (native/cpu/<room>/) or in the tests (native/cpu/tests/<room>/),
//     and native/build.json builds every room, one glob each;
//   - a plugin header is included by its path from native/cpu ("ir/parser_internal.h") and exists;
//   - includes point one way, down this list: a room includes only itself and the rooms before it;
//   - only pjrt/ (and the tests) include native/include/pjrt_c_api.h, and nothing in native/cpu includes
//     the addon, the runtime, the lowering or Node's headers.
// Tests may include any room, "tests/…" and native/tests/check.h. Run by ctest (native_rooms).
// Usage: node scripts/check-native-rooms.cjs [path of native/cpu, for trying the check on a copy]
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// Lowest first: a room may include itself and the rooms before it.
const ROOMS = ["base", "ir", "gemm", "kernels", "exec", "pjrt"];
const SOURCE = /\.(cc|h|inc)$/;
const NODE_HEADERS = new Set(["napi.h", "node_api.h", "js_native_api.h", "node.h", "uv.h", "v8.h"]);

const root = path.resolve(__dirname, "..");
const cpu = path.resolve(process.argv[2] ?? path.join(root, "native/cpu"));
const problems = [];
let files = 0;
let includes = 0;

function rel(p) {
  return path.relative(cpu, p).split(path.sep).join("/");
}
function exists(p) {
  return fs.existsSync(path.join(cpu, p)) && fs.statSync(path.join(cpu, p)).isFile();
}
function mayInclude(room) {
  return ROOMS.slice(0, ROOMS.indexOf(room) + 1);
}

// Which room a file belongs to, and whether it is a test.
function placeOf(file) {
  const parts = rel(file).split("/");
  if (parts[0] === "tests") {
    if (parts.length === 2) return { room: null, test: true };  // shared test helpers (test_modules.h)
    if (parts.length === 3 && ROOMS.includes(parts[1])) return { room: parts[1], test: true };
    return null;
  }
  if (parts.length === 2 && ROOMS.includes(parts[0])) return { room: parts[0], test: false };
  return null;
}

function checkFile(file) {
  const place = placeOf(file);
  const name = `native/cpu/${rel(file)}`;
  if (!place) {
    problems.push(`${name}: not in a room (native/cpu/{${ROOMS.join(",")}}/ or native/cpu/tests/<room>/)`);
    return;
  }
  files++;
  const lines = fs.readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    const m = /^\s*#\s*include\s*([<"])([^>"]+)[>"]/.exec(line);
    if (!m) return;
    includes++;
    const [, quote, target] = m;
    const where = `${name}:${i + 1}: #include ${quote}${target}${quote === "<" ? ">" : '"'}`;
    const base = target.split("/").pop();
    if (NODE_HEADERS.has(base)) {
      problems.push(`${where}: the CPU plugin must not include Node's or the addon's headers`);
      return;
    }
    if (quote === "<") return;  // the C and C++ libraries
    if (target === "pjrt_c_api.h") {
      if (!place.test && place.room !== "pjrt") {
        problems.push(`${where}: only pjrt/ (the C API surface) sees the PJRT C API`);
      }
      return;
    }
    if (target === "check.h" && place.test) return;  // native/tests/check.h
    const [room, ...rest] = target.split("/");
    if (room === "tests" && place.test) {
      if (!exists(target)) problems.push(`${where}: no such file native/cpu/${target}`);
      return;
    }
    if (!ROOMS.includes(room) || rest.length !== 1) {
      problems.push(
        `${where}: include a plugin header by its room, relative to native/cpu ("kernels/kernels.h"); ` +
          `nothing outside native/cpu, native/include/pjrt_c_api.h and the C/C++ libraries`,
      );
      return;
    }
    if (!exists(target)) {
      problems.push(`${where}: no such file native/cpu/${target}`);
      return;
    }
    if (!place.test && !mayInclude(place.room).includes(room)) {
      problems.push(
        `${where}: ${place.room}/ may include only ${mayInclude(place.room).map((r) => r + "/").join(", ")} ` +
          `(includes point one way: ${[...ROOMS].reverse().join(" → ")})`,
      );
    }
  });
}

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const r = rel(p);
      const known = ROOMS.includes(r) || r === "tests" || (r.startsWith("tests/") && ROOMS.includes(r.slice(6)));
      if (!known) problems.push(`native/cpu/${r}/: not a room (have: ${ROOMS.join(", ")}; tests/<room>/ for tests)`);
      else walk(p);
    } else if (SOURCE.test(entry.name)) {
      checkFile(p);
    }
  }
}

if (!fs.existsSync(cpu)) {
  console.error(`check-native-rooms: no directory ${cpu}`);
  process.exit(2);
}
walk(cpu);

// native/build.json builds the plugin from one glob per room.
if (path.resolve(cpu) === path.join(root, "native/cpu")) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "native/build.json"), "utf8"));
  const globs = manifest.targets.cpuPlugin.sources;
  const want = ROOMS.map((r) => `native/cpu/${r}/*.cc`);
  for (const g of want) if (!globs.includes(g)) problems.push(`native/build.json: cpuPlugin.sources lacks "${g}"`);
  for (const g of globs) if (!want.includes(g)) problems.push(`native/build.json: cpuPlugin.sources has "${g}", not a room`);
}

if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`check-native-rooms: ${problems.length} problem(s); the rules are in native/cpu/README.md`);
  process.exit(1);
}
console.log(`check-native-rooms: ${files} files, ${includes} includes; every include points one way (${[...ROOMS].reverse().join(" → ")})`);
