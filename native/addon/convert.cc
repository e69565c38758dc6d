#include "convert.h"

#include <cmath>
#include <cstring>

#include "errors.h"

namespace tpjrt::addon {
namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 − 1

NamedValue namedValueFrom(Napi::Value item, const char* call) {
  if (!item.IsObject()) throwTypeError(item.Env(), call, "each named value must be an object {name, type, value}");
  Napi::Object object = item.As<Napi::Object>();
  NamedValue out;
  out.name = stringFrom(object.Get("name"), call, "named value 'name'");
  std::string type = stringFrom(object.Get("type"), call, "named value 'type'");
  Napi::Value value = object.Get("value");
  const std::string what = "named value '" + out.name + "'";
  if (type == "string") {
    out.value = stringFrom(value, call, what.c_str());
  } else if (type == "int64") {
    out.value = int64From(value, call, what.c_str());
  } else if (type == "int64list") {
    out.value = int64ListFrom(value, call, what.c_str());
  } else if (type == "float") {
    if (!value.IsNumber()) throwTypeError(item.Env(), call, what + " must be a number");
    out.value = value.As<Napi::Number>().FloatValue();
  } else if (type == "bool") {
    if (!value.IsBoolean()) throwTypeError(item.Env(), call, what + " must be a boolean");
    out.value = value.As<Napi::Boolean>().Value();
  } else {
    throwTypeError(item.Env(), call,
                   what + " has type '" + type + "'; expected string, int64, int64list, float or bool");
  }
  return out;
}

struct NamedValueToJs {
  Napi::Env env;
  Napi::Object out;
  void operator()(const std::string& v) const { set("string", Napi::String::New(env, v)); }
  void operator()(int64_t v) const { set("int64", int64To(env, v)); }
  void operator()(const std::vector<int64_t>& v) const {
    Napi::Array list = Napi::Array::New(env, v.size());
    for (size_t i = 0; i < v.size(); ++i) list.Set(static_cast<uint32_t>(i), int64To(env, v[i]));
    set("int64list", list);
  }
  void operator()(float v) const { set("float", Napi::Number::New(env, v)); }
  void operator()(bool v) const { set("bool", Napi::Boolean::New(env, v)); }
  void set(const char* type, Napi::Value value) const {
    out.Set("type", Napi::String::New(env, type));
    out.Set("value", value);
  }
};

}  // namespace

int64_t int64From(Napi::Value value, const char* call, const char* what) {
  Napi::Env env = value.Env();
  if (value.IsNumber()) {
    double d = value.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(d) || std::trunc(d) != d) throwTypeError(env, call, std::string(what) + " must be an integer");
    if (std::fabs(d) > kMaxSafeInteger)
      throwRangeError(env, call, std::string(what) + " is beyond 2^53; pass a bigint");
    return static_cast<int64_t>(d);
  }
  if (value.IsBigInt()) {
    bool lossless = false;
    int64_t v = value.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless) throwRangeError(env, call, std::string(what) + " does not fit in int64");
    return v;
  }
  throwTypeError(env, call, std::string(what) + " must be an integer number or a bigint");
}

int intFrom(Napi::Value value, const char* call, const char* what) {
  if (!value.IsNumber()) throwTypeError(value.Env(), call, std::string(what) + " must be an integer number");
  int64_t v = int64From(value, call, what);
  if (v < INT32_MIN || v > INT32_MAX) throwRangeError(value.Env(), call, std::string(what) + " is out of int32 range");
  return static_cast<int>(v);
}

std::string stringFrom(Napi::Value value, const char* call, const char* what) {
  if (!value.IsString()) throwTypeError(value.Env(), call, std::string(what) + " must be a string");
  return value.As<Napi::String>().Utf8Value();
}

std::vector<int64_t> int64ListFrom(Napi::Value value, const char* call, const char* what) {
  if (!value.IsArray()) throwTypeError(value.Env(), call, std::string(what) + " must be an array of integers");
  Napi::Array array = value.As<Napi::Array>();
  std::vector<int64_t> out(array.Length());
  for (uint32_t i = 0; i < out.size(); ++i) out[i] = int64From(array.Get(i), call, what);
  return out;
}

Napi::Value int64To(Napi::Env env, int64_t value) {
  if (std::fabs(static_cast<double>(value)) <= kMaxSafeInteger) return Napi::Number::New(env, static_cast<double>(value));
  return Napi::BigInt::New(env, value);
}

Napi::Array numbersTo(Napi::Env env, const std::vector<int64_t>& values) {
  Napi::Array array = Napi::Array::New(env, values.size());
  for (size_t i = 0; i < values.size(); ++i)
    array.Set(static_cast<uint32_t>(i), Napi::Number::New(env, static_cast<double>(values[i])));
  return array;
}

Napi::Array numbersTo(Napi::Env env, const std::vector<int>& values) {
  Napi::Array array = Napi::Array::New(env, values.size());
  for (size_t i = 0; i < values.size(); ++i) array.Set(static_cast<uint32_t>(i), Napi::Number::New(env, values[i]));
  return array;
}

Napi::Array dimsListTo(Napi::Env env, const std::vector<std::vector<int64_t>>& dimsList) {
  Napi::Array array = Napi::Array::New(env, dimsList.size());
  for (size_t i = 0; i < dimsList.size(); ++i) array.Set(static_cast<uint32_t>(i), numbersTo(env, dimsList[i]));
  return array;
}

std::vector<NamedValue> namedValuesFrom(Napi::Value value, const char* call) {
  if (value.IsUndefined() || value.IsNull()) return {};
  if (!value.IsArray()) throwTypeError(value.Env(), call, "options must be an array of named values");
  Napi::Array array = value.As<Napi::Array>();
  std::vector<NamedValue> out;
  out.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(namedValueFrom(array.Get(i), call));
  return out;
}

Napi::Array namedValuesTo(Napi::Env env, const std::vector<NamedValue>& values) {
  Napi::Array array = Napi::Array::New(env, values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    Napi::Object object = Napi::Object::New(env);
    object.Set("name", Napi::String::New(env, values[i].name));
    std::visit(NamedValueToJs{env, object}, values[i].value);
    array.Set(static_cast<uint32_t>(i), object);
  }
  return array;
}

CompileOptions compileOptionsFrom(Napi::Value value, const char* call) {
  CompileOptions options;
  if (value.IsUndefined()) return options;
  if (!value.IsObject()) throwTypeError(value.Env(), call, "compile options must be an object");
  Napi::Object object = value.As<Napi::Object>();
  Napi::Value replicas = object.Get("numReplicas");
  Napi::Value partitions = object.Get("numPartitions");
  Napi::Value assignment = object.Get("deviceAssignment");
  Napi::Value label = object.Get("label");
  if (!label.IsUndefined()) options.label = stringFrom(label, call, "label");
  if (!replicas.IsUndefined()) options.numReplicas = intFrom(replicas, call, "numReplicas");
  if (!partitions.IsUndefined()) options.numPartitions = intFrom(partitions, call, "numPartitions");
  if (options.numReplicas < 1 || options.numPartitions < 1)
    throwRangeError(value.Env(), call, "numReplicas and numPartitions must be at least 1");
  if (!assignment.IsUndefined() && !assignment.IsNull()) {
    for (int64_t id : int64ListFrom(assignment, call, "deviceAssignment")) {
      if (id < 0 || id > INT32_MAX) throwRangeError(value.Env(), call, "deviceAssignment holds an invalid device id");
      options.deviceAssignment.push_back(static_cast<int>(id));
    }
    const size_t expected = static_cast<size_t>(options.numReplicas) * static_cast<size_t>(options.numPartitions);
    if (options.deviceAssignment.size() != expected)
      throwRangeError(value.Env(), call,
                      "deviceAssignment has " + std::to_string(options.deviceAssignment.size()) +
                          " ids; numReplicas × numPartitions = " + std::to_string(expected));
  }
  return options;
}

Napi::Object deviceInfoTo(Napi::Env env, const DeviceInfo& device) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("index", Napi::Number::New(env, device.index));
  object.Set("id", Napi::Number::New(env, device.id));
  object.Set("processIndex", Napi::Number::New(env, device.processIndex));
  object.Set("localHardwareId", Napi::Number::New(env, device.localHardwareId));
  object.Set("addressable", Napi::Boolean::New(env, device.addressable));
  object.Set("kind", Napi::String::New(env, device.kind));
  object.Set("debugString", Napi::String::New(env, device.debugString));
  object.Set("toString", Napi::String::New(env, device.toString));
  object.Set("attributes", namedValuesTo(env, device.attributes));
  return object;
}

Napi::Object memoryStatsTo(Napi::Env env, const MemoryStats& stats) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("bytesInUse", Napi::Number::New(env, static_cast<double>(stats.bytesInUse)));
  auto setOptional = [&](const char* name, const std::optional<int64_t>& v) {
    if (v) object.Set(name, Napi::Number::New(env, static_cast<double>(*v)));
  };
  setOptional("peakBytesInUse", stats.peakBytesInUse);
  setOptional("numAllocs", stats.numAllocs);
  setOptional("largestAllocSize", stats.largestAllocSize);
  setOptional("bytesLimit", stats.bytesLimit);
  return object;
}

Napi::Object aotResultTo(Napi::Env env, const AotResult& result) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("outputTypes", numbersTo(env, result.outputTypes));
  object.Set("outputDims", dimsListTo(env, result.outputDims));
  Napi::Object memory = Napi::Object::New(env);
  for (const auto& [key, v] : result.memory) memory.Set(key, Napi::Number::New(env, static_cast<double>(v)));
  object.Set("memory", memory);
  Napi::Object cost = Napi::Object::New(env);
  for (const auto& [key, v] : result.cost) cost.Set(key, Napi::Number::New(env, v));
  object.Set("cost", cost);
  object.Set("fingerprint", result.fingerprint ? Napi::Value(Napi::String::New(env, *result.fingerprint)) : env.Null());
  Napi::ArrayBuffer bytes = Napi::ArrayBuffer::New(env, result.serialized.size());
  if (!result.serialized.empty()) std::memcpy(bytes.Data(), result.serialized.data(), result.serialized.size());
  object.Set("serialized", Napi::Uint8Array::New(env, result.serialized.size(), bytes, 0));
  return object;
}

}  // namespace tpjrt::addon
