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

// Host → device, argument checks.
const a = client.bufferFromHost(new Float32Array([1, 2, 3, 4]), F32, [4], null, 0);
const b = client.bufferFromHost(new Float32Array([10, 20, 30, 40]), F32, [4], null, 0);
assert.equal(a.type, F32);
assert.deepEqual(a.dims, [4]);
assert.equal(a.byteSize, 16);
assert.equal(a.deviceIndex, 0);
assert.equal(a.disposed, false);
console.log("onDeviceSize", a.onDeviceSize);
assert.deepEqual([...new Float32Array(a.toHostSync())], [1, 2, 3, 4]);
expectNative(() => client.bufferFromHost(new Float32Array(3), F32, [4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost([1, 2, 3, 4], F32, [4], null, 0), { kind: TypeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), "f32", [4], null, 0), { kind: TypeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), 9999, [4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [4], null, 5), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [-4], null, 0), { kind: RangeError, code: 1002 });
expectNative(() => client.bufferFromHost(new Float32Array(4), F32, [2, 2], [4, 16], 0), { kind: RangeError, code: 1002 });
// A transposed view of a 2×2 (column-major strides) stays inside 16 bytes.
const t = client.bufferFromHost(new Float32Array([1, 2, 3, 4]), F32, [2, 2], [4, 8], 0);
console.log("strided [[1,3],[2,4]] →", [...new Float32Array(t.toHostSync())]);
t.dispose();
// Zero-element buffer.
const empty = client.bufferFromHost(new Float32Array(0), F32, [0, 3], null, 0);
assert.equal(empty.toHostSync().byteLength, 0);
empty.dispose();

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
assert.deepEqual([...new Float32Array(await c.toHost())], [11, 22, 33, 44]);
assert.deepEqual([...new Float32Array(c.toHostSync())], [11, 22, 33, 44]);

// call(...buffers): the eager path, the one output bare.
const called = exe.call(a, b);
assert.deepEqual([...new Float32Array(called.toHostSync())], [11, 22, 33, 44]);
called.dispose();

// Wrong objects where a Buffer belongs: TypeError, never a crash.
for (const wrong of [{}, client, exe, null, 7]) expectNative(() => exe.call(a, wrong), { kind: TypeError, code: 1002 });
assert.match(expectNative(() => exe.call(a, {}), {}).message, /args\[1\] must be a native Buffer/);
expectNative(() => exe.run([a, {}]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, client]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, exe]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run([a, null]), { kind: TypeError, code: 1002 });
expectNative(() => exe.run(a), { kind: TypeError, code: 1002 });
expectNative(() => new a.constructor(), { kind: TypeError, code: 1002 });
expectNative(() => new client.constructor(), { kind: TypeError, code: 1002 });
assert.throws(() => a.constructor.prototype.toHostSync.call({}));
// Wrong argument count or shapes reach the runtime/plugin and come back as errors.
const runErr = expectNative(() => exe.run([a]), {});
console.log("run with 1 arg:", runErr.nativeCode, runErr.nativeCall, runErr.message.slice(0, 120));

// Buffers of another client are refused.
const client2 = plugin.createClient([]);
const foreign = client2.bufferFromHost(new Float32Array(4), F32, [4], null, 0);
expectNative(() => exe.run([a, foreign]), { kind: TypeError, code: 1002 });
expectNative(() => exe.call(a, foreign), { kind: TypeError, code: 1002 });
foreign.dispose();
client2.close();

// Dispose: idempotent; use after dispose is an Error with nativeCode 1002.
c.dispose();
c.dispose();
assert.equal(c.disposed, true);
const disposedErr = expectNative(() => c.toHostSync(), { code: 1002 });
assert.equal(disposedErr.message, "Buffer has been disposed");
await expectReject(c.toHost(), { code: 1002 }); // promise methods reject, never throw
expectNative(() => exe.run([a, c]), { code: 1002 });
expectNative(() => exe.call(a, c), { code: 1002 });

// Dispose while an async read is in flight: the read still completes.
const [d] = exe.run([a, b]);
const pending = d.toHost();
d.dispose();
assert.deepEqual([...new Float32Array(await pending)], [11, 22, 33, 44]);

// Finalizers free undisposed buffers once JS yields.
const before = addon.liveCounts().buffers;
(() => {
  for (let i = 0; i < 1000; i++) exe.run([a, b]);
})();
assert.equal(addon.liveCounts().buffers, before + 1000);
await gcAndYield();
console.log("after gc of 1000 undisposed outputs:", addon.liveCounts());
assert.equal(addon.liveCounts().buffers, before);

// Cost of one cache-hit run + dispose.
for (let i = 0; i < 2000; i++) exe.run([a, b])[0].dispose();
const N = 20000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < N; i++) exe.run([a, b])[0].dispose();
const t1 = process.hrtime.bigint();
console.log(`run+dispose: ${(Number(t1 - t0) / 1e3 / N).toFixed(2)} µs per cycle (${N} cycles)`);
const t2 = process.hrtime.bigint();
for (let i = 0; i < N; i++) {
  const [o] = exe.run([a, b]);
  o.toHostSync();
  o.dispose();
}
const t3 = process.hrtime.bigint();
console.log(`run+toHostSync+dispose: ${(Number(t3 - t2) / 1e3 / N).toFixed(2)} µs per cycle`);

// Ahead-of-time compile: whatever the plugin says, the error has the native shape.
try {
  const aot = await plugin.compileForTopology("v5e:2x2", [], ADD, opts);
  console.log("compileForTopology", aot);
} catch (e) {
  console.log("compileForTopology rejected:", e.nativeCode, e.nativeCall, e.message.slice(0, 120));
  assert.equal(typeof e.nativeCode, "number");
}

a.dispose();
b.dispose();
exe.dispose();
expectNative(() => exe.run([]), { code: 1002 });
countsZero();
client.close();
expectNative(() => client.devices(), { code: 1002 });
await gcAndYield();
console.log("liveCounts at end", addon.liveCounts());
assert.equal(addon.liveCounts().clients, 0);
console.log("smoke OK");
