#include "ir/window_geometry.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include "base/error.h"
#include "ir/element_type.h"

namespace tpjrt::cpu {

namespace {

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

const Attribute* find(const Op& op, const char* name) {
  auto it = op.attrs.find(name);
  return it == op.attrs.end() || !it->second ? nullptr : it->second.get();
}

// An optional array<i64> attribute of `rank` entries, each >= `minimum`; `fallback` fills it when absent.
std::vector<int64_t> ints(const Op& op, const char* name, size_t rank, int64_t fallback, int64_t minimum) {
  const Attribute* a = find(op, name);
  if (!a) return std::vector<int64_t>(rank, fallback);
  std::vector<int64_t> v;
  if (a->kind == Attribute::Kind::I64Array) {
    v = a->ints;
  } else if (a->kind == Attribute::Kind::Dense && a->dense.type.dims.size() == 1 && isInteger(a->dense.type.element)) {
    for (int64_t i = 0; i < numElements(a->dense.type); ++i) v.push_back(readIndex(a->dense, i));
  } else {
    fail(std::string("attribute ") + name + " must be an array<i64: …>");
  }
  if (v.size() != rank) fail(std::string(name) + " " + list(v) + " needs " + std::to_string(rank) + " entries");
  for (int64_t x : v)
    if (x < minimum) fail(std::string(name) + " " + list(v) + " must be at least " + std::to_string(minimum));
  return v;
}

// The optional `padding` attribute: a dense tensor<rank x 2 x i64>.
void readPadding(const Op& op, size_t rank, std::vector<int64_t>& low, std::vector<int64_t>& high) {
  low.assign(rank, 0);
  high.assign(rank, 0);
  const Attribute* a = find(op, "padding");
  if (!a) return;
  if (a->kind != Attribute::Kind::Dense || !isInteger(a->dense.type.element) ||
      a->dense.type.dims != std::vector<int64_t>{int64_t(rank), 2})
    fail("attribute padding must be dense<…> : tensor<" + std::to_string(rank) + "x2xi64>");
  constexpr int64_t kLimit = int64_t{1} << 40;
  for (size_t d = 0; d < rank; ++d) {
    low[d] = readIndex(a->dense, int64_t(2 * d));
    high[d] = readIndex(a->dense, int64_t(2 * d + 1));
    if (std::abs(low[d]) > kLimit || std::abs(high[d]) > kLimit) fail("padding is too large");
  }
}

// The size of a dimension of `size` elements dilated by `dilation` and padded, and of a window over it.
int64_t slide(int64_t size, int64_t dilation, int64_t low, int64_t high, int64_t window, int64_t windowDilation,
              int64_t stride) {
  int64_t padded = (size == 0 ? 0 : (size - 1) * dilation + 1) + low + high;
  int64_t span = (window - 1) * windowDilation + 1;
  if (padded < span || window == 0) return 0;
  return (padded - span) / stride + 1;
}

}  // namespace

Window readWindow(const Op& op, size_t rank) {
  Window w;
  w.size = ints(op, "window_dimensions", rank, 1, 1);
  if (!find(op, "window_dimensions") && rank > 0) fail("missing attribute window_dimensions");  // absent means []
  w.stride = ints(op, "window_strides", rank, 1, 1);
  w.baseDilation = ints(op, "base_dilations", rank, 1, 1);
  w.windowDilation = ints(op, "window_dilations", rank, 1, 1);
  readPadding(op, rank, w.padLow, w.padHigh);
  return w;
}

std::vector<int64_t> windowOutputDims(const std::vector<int64_t>& dims, const Window& w) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d)
    out.push_back(slide(dims[d], w.baseDilation[d], w.padLow[d], w.padHigh[d], w.size[d], w.windowDilation[d], w.stride[d]));
  return out;
}

void forEachWindowOffset(const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims, const Window& w,
                         const std::function<void(const std::vector<int64_t>&)>& fn) {
  const size_t rank = inDims.size();
  const int64_t outCount = numElements({ElementType::F32, outDims});
  const int64_t windowCount = numElements({ElementType::F32, w.size});
  const auto inStrides = rowMajorStrides(inDims);
  std::vector<int64_t> row(static_cast<size_t>(outCount));
  std::vector<int64_t> k(rank, 0);
  for (int64_t kf = 0; kf < windowCount; ++kf) {
    // Per dimension, the operand index for each output index along it.
    std::vector<std::vector<int64_t>> along(rank);
    for (size_t d = 0; d < rank; ++d)
      for (int64_t o = 0; o < outDims[d]; ++o) along[d].push_back(windowSource(w, d, o, k[d], inDims[d]));
    std::vector<int64_t> o(rank, 0);
    for (int64_t of = 0; of < outCount; ++of) {
      int64_t flat = 0;
      for (size_t d = 0; d < rank && flat >= 0; ++d) {
        int64_t s = along[d][size_t(o[d])];
        flat = s < 0 ? -1 : flat + s * inStrides[d];
      }
      row[size_t(of)] = flat;
      for (size_t d = rank; d-- > 0;) {
        if (++o[d] < outDims[d]) break;
        o[d] = 0;
      }
    }
    fn(row);
    for (size_t d = rank; d-- > 0;) {
      if (++k[d] < w.size[d]) break;
      k[d] = 0;
    }
  }
}

std::vector<std::vector<int64_t>> windowSources(const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims,
                                                const Window& w) {
  std::vector<std::vector<int64_t>> rows;
  forEachWindowOffset(inDims, outDims, w, [&](const std::vector<int64_t>& row) { rows.push_back(row); });
  return rows;
}

namespace {

// `[b, 0, 1, f]`: assigns each position to its letter or spatial index.
void parseLayout(std::string_view& s, char first, char second, int64_t& a, int64_t& b, std::vector<int64_t>& spatial,
                 size_t rank) {
  auto skip = [&] { while (!s.empty() && s[0] == ' ') s.remove_prefix(1); };
  skip();
  if (s.empty() || s[0] != '[') fail("convolution dimension_numbers: expected '['");
  s.remove_prefix(1);
  a = b = -1;
  spatial.assign(rank >= 2 ? rank - 2 : 0, -1);
  for (int64_t pos = 0;; ++pos) {
    skip();
    if (s.empty()) fail("convolution dimension_numbers: unterminated layout");
    char c = s[0];
    if (c == first || c == second) {
      (c == first ? a : b) = pos;
      s.remove_prefix(1);
    } else if (c >= '0' && c <= '9') {
      int64_t n = 0;
      while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
        n = n * 10 + (s[0] - '0');
        s.remove_prefix(1);
        if (n > 1000) fail("convolution dimension_numbers: spatial index too large");
      }
      if (size_t(n) >= spatial.size() || spatial[size_t(n)] != -1) fail("convolution dimension_numbers: bad spatial index");
      spatial[size_t(n)] = pos;
    } else {
      fail(std::string("convolution dimension_numbers: unexpected '") + c + "'");
    }
    skip();
    if (!s.empty() && s[0] == ']') {
      s.remove_prefix(1);
      if (size_t(pos + 1) != rank) fail("convolution dimension_numbers: layout rank differs from the operands'");
      break;
    }
    if (s.empty() || s[0] != ',') fail("convolution dimension_numbers: expected ','");
    s.remove_prefix(1);
  }
  if (a < 0 || b < 0) fail("convolution dimension_numbers: a layout misses a letter");
  for (int64_t x : spatial)
    if (x < 0) fail("convolution dimension_numbers: a layout misses a spatial dimension");
}

// `raw key = value, …`: reads the named fields.
ConvDims parseRaw(std::string_view s, size_t rank) {
  ConvDims d;
  std::map<std::string, std::vector<int64_t>> fields;
  while (!s.empty()) {
    while (!s.empty() && (s[0] == ' ' || s[0] == ',')) s.remove_prefix(1);
    size_t eq = s.find('=');
    if (eq == std::string_view::npos) break;
    std::string key(s.substr(0, eq));
    key.erase(key.find_last_not_of(' ') + 1);
    s.remove_prefix(eq + 1);
    while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
    std::vector<int64_t> values;
    bool isList = !s.empty() && s[0] == '[';
    if (isList) s.remove_prefix(1);
    while (!s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == ' ' || (isList && s[0] == ','))) {
      if (std::isdigit(static_cast<unsigned char>(s[0]))) {
        int64_t n = 0;
        while (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) {
          n = n * 10 + (s[0] - '0');
          s.remove_prefix(1);
        }
        values.push_back(n);
      } else {
        s.remove_prefix(1);
      }
    }
    if (isList) {
      if (s.empty() || s[0] != ']') fail("convolution dimension_numbers: bad list for " + key);
      s.remove_prefix(1);
    }
    fields[key] = values;
  }
  auto one = [&](const char* key) {
    auto it = fields.find(key);
    if (it == fields.end() || it->second.size() != 1) fail(std::string("convolution dimension_numbers needs ") + key);
    return it->second[0];
  };
  auto many = [&](const char* key) {
    auto it = fields.find(key);
    if (it == fields.end() || it->second.size() + 2 != rank) fail(std::string("convolution dimension_numbers needs ") + key);
    return it->second;
  };
  d.inBatch = one("input_batch_dimension");
  d.inFeature = one("input_feature_dimension");
  d.inSpatial = many("input_spatial_dimensions");
  d.kernelIn = one("kernel_input_feature_dimension");
  d.kernelOut = one("kernel_output_feature_dimension");
  d.kernelSpatial = many("kernel_spatial_dimensions");
  d.outBatch = one("output_batch_dimension");
  d.outFeature = one("output_feature_dimension");
  d.outSpatial = many("output_spatial_dimensions");
  return d;
}

void checkPermutation(int64_t a, int64_t b, const std::vector<int64_t>& spatial, size_t rank, const char* what) {
  std::vector<bool> seen(rank);
  std::vector<int64_t> all = spatial;
  all.push_back(a);
  all.push_back(b);
  for (int64_t x : all) {
    if (x < 0 || size_t(x) >= rank || seen[size_t(x)])
      fail(std::string("convolution dimension_numbers: ") + what + " dimensions must be a permutation of the rank");
    seen[size_t(x)] = true;
  }
}

}  // namespace

ConvDims parseConvDims(const Attribute& attr, size_t rank) {
  if (attr.kind != Attribute::Kind::String) fail("attribute dimension_numbers must be #stablehlo.conv<…>");
  std::string_view s = attr.s;
  constexpr std::string_view kPrefix = "#stablehlo.conv<";
  if (s.substr(0, kPrefix.size()) == kPrefix) {
    s.remove_prefix(kPrefix.size());
    if (s.empty() || s.back() != '>') fail("convolution dimension_numbers: missing '>'");
    s.remove_suffix(1);
  }
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  ConvDims d;
  if (s.substr(0, 4) == "raw ") {
    d = parseRaw(s.substr(4), rank);
  } else {
    parseLayout(s, 'b', 'f', d.inBatch, d.inFeature, d.inSpatial, rank);
    while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
    if (s.empty() || s[0] != 'x') fail("convolution dimension_numbers: expected 'x'");
    s.remove_prefix(1);
    parseLayout(s, 'i', 'o', d.kernelIn, d.kernelOut, d.kernelSpatial, rank);
    while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
    if (s.substr(0, 2) != "->") fail("convolution dimension_numbers: expected '->'");
    s.remove_prefix(2);
    parseLayout(s, 'b', 'f', d.outBatch, d.outFeature, d.outSpatial, rank);
    while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
    if (!s.empty()) fail("convolution dimension_numbers: unexpected text after the output layout");
  }
  checkPermutation(d.inBatch, d.inFeature, d.inSpatial, rank, "input");
  checkPermutation(d.kernelIn, d.kernelOut, d.kernelSpatial, rank, "kernel");
  checkPermutation(d.outBatch, d.outFeature, d.outSpatial, rank, "output");
  return d;
}

ConvParams readConvParams(const Op& op, size_t rank) {
  if (rank < 2) fail("operands need a batch and a feature dimension");
  const size_t n = rank - 2;
  ConvParams p;
  const Attribute* numbers = find(op, "dimension_numbers");
  if (!numbers) fail("missing attribute dimension_numbers");
  p.dims = parseConvDims(*numbers, rank);
  p.stride = ints(op, "window_strides", n, 1, 1);
  p.lhsDilation = ints(op, "lhs_dilation", n, 1, 1);
  p.rhsDilation = ints(op, "rhs_dilation", n, 1, 1);
  readPadding(op, n, p.padLow, p.padHigh);
  p.reversal.assign(n, false);
  if (const Attribute* r = find(op, "window_reversal")) {
    if (r->kind != Attribute::Kind::BoolArray || r->bools.size() != n)
      fail("window_reversal must be array<i1: …> with " + std::to_string(n) + " entries");
    p.reversal = r->bools;
  }
  for (auto [name, field] : {std::pair{"feature_group_count", &p.featureGroups}, {"batch_group_count", &p.batchGroups}}) {
    const Attribute* a = find(op, name);
    if (!a) continue;
    if (a->kind != Attribute::Kind::Int || a->i < 1) fail(std::string(name) + " must be a positive integer");
    *field = a->i;
  }
  return p;
}

TensorType convOutputType(const TensorType& lhs, const TensorType& rhs, const ConvParams& p) {
  const ConvDims& d = p.dims;
  if (lhs.dims.size() != rhs.dims.size()) fail("lhs " + typeString(lhs) + " and rhs " + typeString(rhs) + " differ in rank");
  if (lhs.element != rhs.element)
    fail("lhs " + typeString(lhs) + " and rhs " + typeString(rhs) + " must have one element type (StableHLO convolution C27); convert one first");
  const int64_t batch = lhs.dims[size_t(d.inBatch)], features = lhs.dims[size_t(d.inFeature)];
  const int64_t kernelIn = rhs.dims[size_t(d.kernelIn)], kernelOut = rhs.dims[size_t(d.kernelOut)];
  if (p.featureGroups > 1 && p.batchGroups > 1) fail("feature_group_count and batch_group_count cannot both exceed 1");
  if (features % p.featureGroups != 0)
    fail("input features " + std::to_string(features) + " are not divisible by feature_group_count " + std::to_string(p.featureGroups));
  if (batch % p.batchGroups != 0)
    fail("batch " + std::to_string(batch) + " is not divisible by batch_group_count " + std::to_string(p.batchGroups));
  if (kernelIn * p.featureGroups != features)
    fail("kernel input features " + std::to_string(kernelIn) + " times feature_group_count " + std::to_string(p.featureGroups) +
         " must equal the input features " + std::to_string(features));
  if (kernelOut % p.featureGroups != 0 || kernelOut % p.batchGroups != 0)
    fail("kernel output features " + std::to_string(kernelOut) + " must be divisible by the group counts");
  TensorType out{lhs.element, std::vector<int64_t>(lhs.dims.size())};
  out.dims[size_t(d.outBatch)] = batch / p.batchGroups;
  out.dims[size_t(d.outFeature)] = kernelOut;
  for (size_t i = 0; i < d.inSpatial.size(); ++i) {
    int64_t size = lhs.dims[size_t(d.inSpatial[i])], window = rhs.dims[size_t(d.kernelSpatial[i])];
    out.dims[size_t(d.outSpatial[i])] = slide(size, p.lhsDilation[i], p.padLow[i], p.padHigh[i], window, p.rhsDilation[i], p.stride[i]);
  }
  return out;
}

}  // namespace tpjrt::cpu
