// torch.setDefaultDtype / setDefaultDevice: what follows the default float dtype (as PyTorch 2.13 does:
// torch.tensor of JS floats, float factories, integer inputs of float ops, int ⊕ float scalar) and the
// default device (tensors made without a device), that both are part of the executable cache key and
// of torch.compile's guards, and the bad calls. Values are checked against float64 JS arithmetic and
// float16 rounding.
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, missing } from "./eager/helpers.js";

afterEach(() => {
  torch.setDefaultDtype("float32");
  torch.setDefaultDevice(null);
});

describe.skipIf(missing)("torch.setDefaultDtype", () => {
  eagerSuite();

  it("starts as float32", () => {
    expect(torch.getDefaultDtype()).toBe("float32");
    const t = torch.tensor([1.5]);
    expect(t.dtype).toBe("float32");
    t.dispose();
  });

  it("float64: creation, factories and the float results of integer inputs", () => {
    torch.setDefaultDtype(torch.float64);
    expect(torch.getDefaultDtype()).toBe("float64");
    torch.tidy(() => {
      const made = [torch.tensor([0.1]), torch.tensor([]), torch.zeros([2]), torch.ones([2]), torch.full([2], 1.5), torch.arange(0, 1, 0.5), torch.linspace(0, 1, 3), torch.eye(2), torch.rand([2])];
      for (const t of made) expect(t.dtype).toBe("float64");
      expect(torch.tensor([0.1]).item()).toBe(0.1); // not float32's 0.10000000149011612
      const ints = torch.tensor([1, 2]);
      expect(ints.dtype).toBe("int64");
      const third = ints.div(3);
      expect(third.dtype).toBe("float64");
      expect(third.tolist()).toEqual([1 / 3, 2 / 3]);
      const root = ints.sqrt();
      expect(root.dtype).toBe("float64");
      expect(root.tolist()).toEqual([1, Math.SQRT2]);
      expect(ints.add(2.5).dtype).toBe("float64");
      expect(torch.finfo().bits).toBe(64);
    });
  });

  it("float16 rounds creation and results to half precision", () => {
    torch.setDefaultDtype("float16");
    torch.tidy(() => {
      expect(torch.tensor([1.1]).tolist()).toEqual([1.099609375]); // float16's nearest to 1.1
      const q = torch.tensor([3]).div(7);
      expect(q.dtype).toBe("float16");
      expect(q.tolist()).toEqual([0.428466796875]);
    });
  });

  it("is part of the cache key: a unit traced under float32 is not reused under float64", () => {
    const ints = torch.tensor([1, 2]);
    const before = ints.div(3);
    expect(before.dtype).toBe("float32");
    torch.setDefaultDtype("float64");
    const after = ints.div(3);
    expect(after.dtype).toBe("float64");
    expect(after.tolist()).toEqual([1 / 3, 2 / 3]);
    torch.setDefaultDtype("float32");
    const again = ints.div(3);
    expect(again.dtype).toBe("float32");
    expect(again.tolist()).toEqual([Math.fround(1 / 3), Math.fround(2 / 3)]);
    for (const t of [ints, before, after, again]) t.dispose();
  });

  it("is one of torch.compile's guards", () => {
    const halve = torch.compile((x: torch.Tensor) => x.div(2));
    const ints = torch.tensor([1, 3]);
    const a = halve(ints);
    torch.setDefaultDtype("float64");
    const b = halve(ints);
    expect([a.dtype, b.dtype]).toEqual(["float32", "float64"]);
    expect(b.tolist()).toEqual([0.5, 1.5]);
    expect(halve.stats().compiles).toBe(2);
    expect(halve.stats().recompileReasons.join("\n")).toMatch(/default dtype float32 → float64/);
    for (const t of [ints, a, b]) t.dispose();
  });

  it("cov and corrcoef of integers compute in the default dtype", () => {
    torch.setDefaultDtype("float64");
    torch.tidy(() => {
      const x = torch.tensor([[1, 2, 3], [2, 5, 1]]);
      const c = torch.cov(x);
      expect(c.dtype).toBe("float64");
      const expected = [[1, -0.5], [-0.5, 13 / 3]];
      (c.tolist() as number[][]).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]![j]!, 12)));
      const r = torch.corrcoef(x);
      expect(r.dtype).toBe("float64");
      expect((r.tolist() as number[][])[0]![1]).toBeCloseTo(-0.5 / Math.sqrt(13 / 3), 12);
    });
  });

  it("new modules' parameters take the default dtype", () => {
    torch.setDefaultDtype("float64");
    const layer = new torch.nn.Linear(2, 3);
    expect(layer.weight.dtype).toBe("float64");
    expect(layer.bias!.dtype).toBe("float64");
    for (const p of layer.parameters()) p.dispose();
  });

  it("refuses a dtype that is not floating point", () => {
    expect(() => torch.setDefaultDtype("int32")).toThrow(torch.DTypeError);
    expect(() => torch.setDefaultDtype("int32")).toThrow(/only a floating-point dtype can be the default.*got int32/);
    expect(() => torch.setDefaultDtype("float128" as torch.DType)).toThrow(/got float128/);
    expect(torch.getDefaultDtype()).toBe("float32");
  });
});

describe.skipIf(missing)("torch.setDefaultDevice", () => {
  eagerSuite(); // two CPU devices

  it("starts as cpu:0 and places tensors made without a device", () => {
    expect(torch.getDefaultDevice()).toBe("cpu:0");
    torch.setDefaultDevice("cpu:1");
    expect(torch.getDefaultDevice()).toBe("cpu:1");
    torch.tidy(() => {
      const made = [torch.tensor([1.5, 2]), torch.zeros([2]), torch.full([2], 3), torch.arange(2), torch.eye(2), torch.rand([2]), torch.randint(0, 5, [2])];
      for (const t of made) expect(t.device).toBe("cpu:1");
      const sum = made[0]!.add(made[1]!);
      expect(sum.device).toBe("cpu:1");
      expect(sum.tolist()).toEqual([1.5, 2]);
      expect(torch.zeros([2], { device: "cpu:0" }).device).toBe("cpu:0"); // an explicit device wins
    });
    const layer = new torch.nn.Linear(2, 2);
    expect(layer.weight.device).toBe("cpu:1");
    for (const p of layer.parameters()) p.dispose();
    torch.setDefaultDevice(null);
    expect(torch.getDefaultDevice()).toBe("cpu:0");
  });

  it("is one of torch.compile's guards", () => {
    const make = torch.compile(() => torch.ones([2]).mul(2));
    const a = make();
    torch.setDefaultDevice("cpu:1");
    const b = make();
    expect([a.device, b.device]).toEqual(["cpu:0", "cpu:1"]);
    expect(b.tolist()).toEqual([2, 2]);
    expect(make.stats().recompileReasons.join("\n")).toMatch(/default device cpu:0 → cpu:1/);
    a.dispose();
    b.dispose();
  });

  it("refuses an unknown device type now and a missing index when a tensor is made", () => {
    expect(() => torch.setDefaultDevice("gpu7")).toThrow(torch.DeviceError);
    expect(() => torch.setDefaultDevice("gpu7")).toThrow(/unknown device type 'gpu7'/);
    expect(torch.getDefaultDevice()).toBe("cpu:0");
    torch.setDefaultDevice("cpu:9");
    expect(() => torch.zeros([2])).toThrow(torch.DeviceError);
    expect(() => torch.zeros([2])).toThrow(/cpu:9/);
  });
});
