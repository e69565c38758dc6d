// Where the addon and the CPU plugin are looked for: a local build first (developers, and the install
// script's source build), then the prebuilt binaries shipped in the package (scripts/prepack.cjs).
import { describe, expect, it } from "vitest";
import { findCpuPlugin } from "../../src/plugins/discovery.js";
import { addonFileName, cpuPluginFileName, findInBuildDirs, prebuildDir } from "../../src/runtime/paths.js";
import { fakeHost } from "../helpers/fakeHost.js";

const prebuilt = `/pkg/prebuilds/${process.platform}-${process.arch}`;

describe("prebuilt binaries", () => {
  it("live in prebuilds/<platform>-<arch>", () => {
    expect(prebuildDir("/pkg")).toBe(prebuilt);
  });

  it("are used when there is no local build, and say so", () => {
    const host = fakeHost({ files: { [`${prebuilt}/${addonFileName}`]: "", [`${prebuilt}/${cpuPluginFileName}`]: "" } });
    expect(findInBuildDirs(host, addonFileName, "/pkg")).toEqual({
      path: `${prebuilt}/${addonFileName}`,
      prebuilt: true,
      searched: [`/pkg/build/Release/${addonFileName}`, `${prebuilt}/${addonFileName}`],
    });
    expect(findCpuPlugin(host, "/pkg")).toMatchObject({ path: `${prebuilt}/${cpuPluginFileName}`, via: "prebuild" });
  });

  it("lose to a local build/Release", () => {
    const host = fakeHost({
      files: { [`/pkg/build/Release/${cpuPluginFileName}`]: "", [`${prebuilt}/${cpuPluginFileName}`]: "" },
    });
    expect(findInBuildDirs(host, cpuPluginFileName, "/pkg")).toMatchObject({ path: `/pkg/build/Release/${cpuPluginFileName}`, prebuilt: false });
    expect(findCpuPlugin(host, "/pkg")).toMatchObject({ via: "build" });
  });

  it("are not looked at when TORCH_PJRT_BUILD_DIR names a build", () => {
    const host = fakeHost({ files: { [`${prebuilt}/${cpuPluginFileName}`]: "" }, env: { TORCH_PJRT_BUILD_DIR: "/tmp/b" } });
    expect(findCpuPlugin(host, "/pkg")).toEqual({
      path: undefined,
      via: "TORCH_PJRT_BUILD_DIR",
      searched: [`/tmp/b/Release/${cpuPluginFileName}`, `/tmp/b/${cpuPluginFileName}`],
    });
  });
});
