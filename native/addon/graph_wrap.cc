#include "graph_wrap.h"

#include <string>

#include "convert.h"
#include "errors.h"
#include "host_data.h"

namespace tpjrt::addon {
namespace {

Napi::Object objectFrom(Napi::Value value, const char* call, const std::string& what) {
  if (!value.IsObject()) throwTypeError(value.Env(), call, what + " must be an object");
  return value.As<Napi::Object>();
}

Napi::Array arrayFrom(Napi::Value value, const char* call, const std::string& what) {
  if (!value.IsArray()) throwTypeError(value.Env(), call, what + " must be an array");
  return value.As<Napi::Array>();
}

std::vector<int> idsFrom(Napi::Value value, const char* call, const std::string& what) {
  std::vector<int> ids;
  for (int64_t id : int64ListFrom(value, call, what.c_str())) ids.push_back(static_cast<int>(id));
  return ids;
}

lower::TensorType typeFrom(Napi::Value value, const char* call, const std::string& what) {
  Napi::Object object = objectFrom(value, call, what);
  return {intFrom(object.Get("type"), call, (what + ".type").c_str()),
          int64ListFrom(object.Get("dims"), call, (what + ".dims").c_str())};
}

std::vector<lower::TensorType> typesFrom(Napi::Value value, const char* call, const std::string& what) {
  Napi::Array array = arrayFrom(value, call, what);
  std::vector<lower::TensorType> types(array.Length());
  for (uint32_t i = 0; i < types.size(); ++i) types[i] = typeFrom(array.Get(i), call, what + "[" + std::to_string(i) + "]");
  return types;
}

lower::Attr attrFrom(Napi::Value value, const char* call, const std::string& what) {
  Napi::Object object = objectFrom(value, call, what);
  lower::Attr attr;
  attr.name = stringFrom(object.Get("name"), call, (what + ".name").c_str());
  std::string where = what + " (" + attr.name + ")";
  if (object.Has("int")) {
    attr.kind = lower::AttrKind::Int;
    attr.value = int64From(object.Get("int"), call, where.c_str());
  } else if (object.Has("ints")) {
    attr.kind = lower::AttrKind::IntList;
    attr.list = int64ListFrom(object.Get("ints"), call, where.c_str());
  } else if (object.Has("enum")) {
    attr.kind = lower::AttrKind::Enum;
    attr.text = stringFrom(object.Get("enum"), call, where.c_str());
  } else if (object.Has("dot")) {
    attr.kind = lower::AttrKind::Dot;
    Napi::Array lists = arrayFrom(object.Get("dot"), call, where);
    for (uint32_t i = 0; i < lists.Length(); ++i) attr.lists.push_back(int64ListFrom(lists.Get(i), call, where.c_str()));
  } else if (object.Has("dense")) {
    attr.kind = lower::AttrKind::Dense;
    HostBytes bytes = hostBytesFrom(object.Get("dense"), call);
    const auto* p = static_cast<const uint8_t*>(bytes.data);
    attr.bytes.assign(p, p + bytes.byteLength);
  } else if (object.Has("text")) {
    attr.kind = lower::AttrKind::Text;
    attr.text = stringFrom(object.Get("text"), call, where.c_str());
  } else {
    throwTypeError(value.Env(), call, where + " needs one of int, ints, enum, dot, dense, text");
  }
  return attr;
}

}  // namespace

lower::Graph graphFrom(Napi::Value value, const char* call) {
  Napi::Object object = objectFrom(value, call, "graph");
  lower::Graph graph;
  graph.inputs = typesFrom(object.Get("inputs"), call, "graph.inputs");
  Napi::Array nodes = arrayFrom(object.Get("nodes"), call, "graph.nodes");
  graph.nodes.resize(nodes.Length());
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    std::string what = "graph.nodes[" + std::to_string(n) + "]";
    Napi::Object item = objectFrom(nodes.Get(n), call, what);
    lower::Node& node = graph.nodes[n];
    node.op = stringFrom(item.Get("op"), call, (what + ".op").c_str());
    node.operands = idsFrom(item.Get("operands"), call, what + ".operands");
    node.results = typesFrom(item.Get("results"), call, what + ".results");
    Napi::Value attrs = item.Get("attrs");
    if (!attrs.IsUndefined()) {
      Napi::Array list = arrayFrom(attrs, call, what + ".attrs");
      for (uint32_t i = 0; i < list.Length(); ++i)
        node.attrs.push_back(attrFrom(list.Get(i), call, what + ".attrs[" + std::to_string(i) + "]"));
    }
    Napi::Value body = item.Get("body");
    if (!body.IsUndefined()) node.body = stringFrom(body, call, (what + ".body").c_str());
    Napi::Value regions = item.Get("regions");
    if (!regions.IsUndefined()) {
      Napi::Array list = arrayFrom(regions, call, what + ".regions");
      for (uint32_t r = 0; r < list.Length(); ++r) node.regions.push_back(graphFrom(list.Get(r), call));
    }
  }
  graph.outputs = idsFrom(object.Get("outputs"), call, "graph.outputs");
  Napi::Value aliases = object.Get("aliases");
  if (!aliases.IsUndefined()) {
    Napi::Array list = arrayFrom(aliases, call, "graph.aliases");
    for (uint32_t k = 0; k < list.Length(); ++k) {
      std::string what = "graph.aliases[" + std::to_string(k) + "]";
      Napi::Object item = objectFrom(list.Get(k), call, what);
      graph.aliases.push_back({intFrom(item.Get("output"), call, (what + ".output").c_str()),
                               intFrom(item.Get("input"), call, (what + ".input").c_str())});
    }
  }
  return graph;
}

}  // namespace tpjrt::addon
