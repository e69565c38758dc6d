{
  "targets": [
    {
      "target_name": "torch_pjrt",
      "sources": ["<!@(node scripts/native-sources.cjs addon --gyp)"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "native/include",
        "native/runtime",
        "native/lower"
      ],
      "defines": [
        "<!@(node -p \"require('./native/build.json').defines.join(' ')\")",
        "NAPI_VERSION=<!(node -p \"require('./native/build.json').napiVersion\")",
        "TPJRT_BUILD_TOOL=\"node-gyp\""
      ],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++20", "-fexceptions", "-frtti", "-O2"],
      "libraries": ["-ldl", "-lpthread"]
    },
    {
      "target_name": "pjrt_cpu_plugin",
      "type": "shared_library",
      "product_prefix": "",
      "product_extension": "so",
      "sources": ["<!@(node scripts/native-sources.cjs cpuPlugin --gyp)"],
      "include_dirs": ["native/include", "native/cpu"],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++20", "-fexceptions", "-frtti", "-O3", "-fno-trapping-math", "-fno-math-errno", "-ffp-contract=off", "-fvisibility=hidden"],
      "libraries": ["-lpthread"],
      "ldflags": ["-Wl,--version-script=<(module_root_dir)/native/cpu/pjrt/exports.map"]
    }
  ]
}
