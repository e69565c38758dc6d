// End-to-end smoke test of the addon against a PJRT plugin (not part of npm test):
//   node --expose-gc native/addon/smoke.mjs <build>/Release/torch_pjrt.node <build>/Release/pjrt_cpu_plugin.so
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const [addonPath, pluginPath] = process.argv.slice(2);
const addon = createRequire(import.meta.url)(addonPath);
const F32 = 11;
const ADD = `module {
  func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}`;
const opts = { numReplicas: 1, numPartitions: 1 };
const buffers = addon.buffers;

function expectNative(fn, { kind = Error, code, call }) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof kind, `expected ${kind.name}, got ${e?.constructor?.name}: ${e?.message}`);
    if (code !== undefined) assert.equal(e.nativeCode, code, e.message);
    if (call !== undefined) assert.equal(e.nativeCall, call, e.message);
    assert.equal(typeof e.nativeCall, "string");
    return e;
  }
  assert.fail("expected a throw");
}
async function expectReject(promise, { code, call } = {}) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof Error);
    assert.equal(typeof e.nativeCode, "number");
    if (code !== undefined) assert.equal(e.nativeCode, code);
    if (call !== undefined) assert.equal(e.nativeCall, call);
    return e;
  }
  assert.fail("expected a rejection");
}
const countsZero = () => {
  const c = addon.liveCounts();
  assert.equal(c.buffers, 0, JSON.stringify(c));
  assert.equal(c.executables, 0, JSON.stringify(c));
  assert.equal(c.externalBytes, 0, JSON.stringify(c));
};
const gcAndYield = async () => {
  for (let i = 0; i < 3; i++) {
    global.gc();
    await new Promise((r) => setImmediate(r));
  }
};

console.log("buildInfo", addon.buildInfo());
assert.equal(addon.buildInfo().napiVersion, 8);

const missing = expectNative(() => addon.loadPlugin("/nonexistent/missing_plugin.so"), { code: 1001 });
console.log("missing plugin:", missing.message, missing.nativeCall);
expectNative(() => addon.loadPlugin(42), { kind: TypeError, code: 1002, call: "loadPlugin" });

const plugin = addon.loadPlugin(pluginPath);
assert.equal(addon.loadPlugin(pluginPath), plugin, "plugin objects are cached per path");
console.log("plugin", plugin.path, plugin.apiMajor, plugin.apiMinor, plugin.numSlots, plugin.attributes());

const client = plugin.createClient([]);
console.log("client", client.platformName, client.platformVersion, client.processIndex);
console.dir(client.devices(), { depth: 4 });
console.log("memoryStats", client.memoryStats(0));
expectNative(() => client.memoryStats(99), { kind: RangeError, code: 1002 });
assert.equal(addon.liveCounts().clients, 1);

// Host → device, argument checks. Buffers are integer handles.
const a = client.bufferFromHost(new Float32Array([1, 2, 3, 4]), F32, [4], null, 0);
const b = client.bufferFromHost(new Float32Array([10, 20, 30, 40]), F32, [4], null, 0);
assert.equal(typeof a, "number");
const info = buffers.info(a);
assert.equal(info.type, F32);
assert.deepEqual(info.dims, [4]);
assert.equal(info.byteSize, 16);
assert.equal(info.deviceIndex, 0);
console.log("onDeviceSize", info.onDeviceSize);
assert.deepEqual([...new Float32Array(buffers.toHostSync(a))], [1, 2, 3, 4]);
expectNative(() => client.bufferFromHost(new Float32Array(3), F32, [4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost([1, 2, 3, 4], F32, [4], null, 0), { kind: TypeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), "f32", [4], null, 0), { kind: TypeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), 9999, [4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [4], null, 5), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [-4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [2, 2], [4, 16], 0), { kind: RangeError, code: 1002 });
// A transposed view of a 2×2 (column-major strides) stays inside 16 bytes.
const t = client.bufferFromHost(new Float32Array([1, 2, 3, 4]), F32, [2, 2], [4, 8], 0);
console.log("strided [[1,3],[2,4]] →", [...new Float32Array(buffers.toHostSync(t))]);
buffers.dispose(t);
// Zero-element buffer.
const empty = client.bufferFromHost(new Float32Array(0), F32, [0, 3], null, 0);
assert.equal(buffers.toHostSync(empty).byteLength, 0);
buffers.dispose(empty);

// Compile errors: sync throws, async rejects, same shape.
const bad = expectNative(() => client.compileSync("module { this is not stablehlo }", opts), {});
console.log("bad module (sync):", bad.nativeCode, bad.nativeCall, bad.message.slice(0, 160));
const badAsync = await expectReject(client.compile("module { this is not stablehlo }", opts));
assert.equal(badAsync.nativeCode, bad.nativeCode);
expectNative(() => client.compileSync(ADD, { numReplicas: 0, numPartitions: 1 }), { kind: RangeError, code: 1002 });
expectNative(() => client.compileSync(ADD, { numReplicas: 1, numPartitions: 1, deviceAssignment: [0, 1] }), {
  kind: RangeError,
  code: 1002,
});

await expectReject(client.compile(42, opts), { code: 1002, call: "Client.compile" });
const exe = await client.compile(ADD, opts);
const exeSync = client.compileSync(ADD, opts);
console.log("executable", exe.numOutputs, exe.outputTypes, exe.outputDims, exe.fingerprint);
exeSync.dispose();

const [c] = exe.run([a, b]);
assert.deepEqual([...new Float32Array(await buffers.toHost(c))], [11, 22, 33, 44]);
assert.deepEqual([...new Float32Array(buffers.toHostSync(c))], [11, 22, 33, 44]);

// call(...buffers): the eager path, the one output bare.
const called = exe.call(a, b);
assert.deepEqual([...new Float32Array(buffers.toHostSync(called))], [11, 22, 33, 44]);
buffers.dispose(called);
const { call } = exe; // works detached from the executable object
const detached = call(a, b);
assert.deepEqual([...new Float32Array(buffers.toHostSync(detached))], [11, 22, 33, 44]);
buffers.dispose(detached);

// Anything but a handle where a buffer belongs: TypeError, never a crash. A number that is no live
// handle is a "disposed" error.
for (const wrong of [{}, client, exe, null, -1, 1.5, 2 ** 31, "1"]) expectNative(() => exe.call(a, wrong), { kind: TypeError, code: 1002 });
assert.match(expectNative(() => exe.call(a, {}), {}).message, /args\[1\] must be a buffer handle/);
for (const stale of [7, 12345, 2 ** 30 - 1]) assert.equal(expectNative(() => exe.call(a, stale), { code: 1002 }).message, "Buffer has been disposed");
expectNative(() => exe.run([a, {}]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, client]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, exe]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, null]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run(a), { kind: TypeError, code: 1002 });
expectNative(() => buffers.toHostSync({}), { kind: TypeError, code: 1002 });
expectNative(() => buffers.dispose("x"), { kind: TypeError, code: 1002 });
expectNative(() => new exe.constructor(), { kind: TypeError, code: 1002 });
expectNative(() => new client.constructor(), { kind: TypeError, code: 1002 });
// Wrong argument count or shapes reach the runtime/plugin and come back as errors.
const runErr = expectNative(() => exe.run([a]), {});
console.log("run with 1 arg:", runErr.nativeCode, runErr.nativeCall, runErr.message.slice(0, 120));

// Buffers of another client are refused.
const client2 = plugin.createClient([]);
const foreign = client2.bufferFromHost(new Float32Array(4), F32, [4], null, 0);
expectNative(() => exe.run([a, foreign]), { kind: TypeError, code: 1002 });
expectNative(() => exe.call(a, foreign), { kind: TypeError, code: 1002 });
buffers.dispose(foreign);
client2.close();

// Dispose: idempotent; use after dispose is an Error with nativeCode 1002, also once the slot holds
// a new buffer (the handle's generation differs).
buffers.dispose(c);
buffers.dispose(c);
const disposedErr = expectNative(() => buffers.toHostSync(c), { code: 1002 });
assert.equal(disposedErr.message, "Buffer has been disposed");
await expectReject(buffers.toHost(c), { code: 1002 }); // promise methods reject, never throw
expectNative(() => exe.run([a, c]), { code: 1002 });
expectNative(() => exe.call(a, c), { code: 1002 });
const reused = exe.call(a, b);
assert.notEqual(reused, c);
expectNative(() => exe.call(a, c), { code: 1002 });
buffers.dispose(c);
assert.deepEqual([...new Float32Array(buffers.toHostSync(reused))], [11, 22, 33, 44]);
buffers.dispose(reused);

// Dispose while an async read is in flight: the read still completes.
const [d] = exe.run([a, b]);
const pending = buffers.toHost(d);
buffers.dispose(d);
assert.deepEqual([...new Float32Array(await pending)], [11, 22, 33, 44]);

// Handles are plain numbers: nothing frees one but dispose (src/memory.ts frees those of tensors).
const before = addon.liveCounts().buffers;
const kept = Array.from({ length: 1000 }, () => exe.call(a, b));
assert.equal(addon.liveCounts().buffers, before + 1000);
await gcAndYield();
assert.equal(addon.liveCounts().buffers, before + 1000);
for (const h of kept) buffers.dispose(h);
assert.equal(addon.liveCounts().buffers, before);

// Cost of one cache-hit run + dispose.
for (let i = 0; i < 2000; i++) buffers.dispose(exe.call(a, b));
const N = 20000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < N; i++) buffers.dispose(exe.call(a, b));
const t1 = process.hrtime.bigint();
console.log(`call+dispose: ${(Number(t1 - t0) / 1e3 / N).toFixed(2)} µs per cycle (${N} cycles)`);
const t2 = process.hrtime.bigint();
for (let i = 0; i < N; i++) {
  const o = exe.call(a, b);
  buffers.toHostSync(o);
  buffers.dispose(o);
}
const t3 = process.hrtime.bigint();
console.log(`call+toHostSync+dispose: ${(Number(t3 - t2) / 1e3 / N).toFixed(2)} µs per cycle`);

// Ahead-of-time compile: whatever the plugin says, the error has the native shape.
try {
  const aot = await plugin.compileForTopology("v5e:2x2", [], ADD, opts);
  console.log("compileForTopology", aot);
} catch (e) {
  console.log("compileForTopology rejected:", e.nativeCode, e.nativeCall, e.message.slice(0, 120));
  assert.equal(typeof e.nativeCode, "number");
}

buffers.dispose(a);
buffers.dispose(b);
exe.dispose();
expectNative(() => exe.run([]), { code: 1002 });
countsZero();
client.close();
expectNative(() => client.devices(), { code: 1002 });
await gcAndYield();
console.log("liveCounts at end", addon.liveCounts());
assert.equal(addon.liveCounts().clients, 0);
console.log("smoke OK");
