#include <atomic>
#include <memory>

#include "pjrt_call.h"

namespace tpjrt {
namespace {
std::atomic<int64_t> liveBuffers{0};

void destroyHandle(const Plugin& plugin, PJRT_Buffer* handle) {
  if (handle == nullptr || !TPJRT_HAS(plugin, PJRT_Buffer_Destroy)) return;
  auto args = TPJRT_ARGS(PJRT_Buffer_Destroy);
  args.buffer = handle;
  detail::takeError(plugin, plugin.api()->PJRT_Buffer_Destroy(&args));
}
}  // namespace

size_t byteWidthOf(BufferType type) {
  switch (type) {
    case PJRT_Buffer_Type_PRED:
    case PJRT_Buffer_Type_S8:
    case PJRT_Buffer_Type_U8: return 1;
    case PJRT_Buffer_Type_S16:
    case PJRT_Buffer_Type_U16:
    case PJRT_Buffer_Type_F16:
    case PJRT_Buffer_Type_BF16: return 2;
    case PJRT_Buffer_Type_S32:
    case PJRT_Buffer_Type_U32:
    case PJRT_Buffer_Type_F32: return 4;
    case PJRT_Buffer_Type_S64:
    case PJRT_Buffer_Type_U64:
    case PJRT_Buffer_Type_F64: return 8;
    default: return 0;
  }
}

// Takes ownership of `handle` at once, so a failed query below still destroys it.
Buffer::Buffer(std::shared_ptr<Client> client, PJRT_Buffer* handle, int deviceIndex)
    : client_(std::move(client)), handle_(handle), deviceIndex_(deviceIndex), type_(0) {
  ++liveBuffers;
  const Plugin& plugin = client_->plugin();
  try {
    auto type = TPJRT_ARGS(PJRT_Buffer_ElementType);
    type.buffer = handle_;
    TPJRT_CALL(plugin, PJRT_Buffer_ElementType, type);
    type_ = type.type;
    auto dims = TPJRT_ARGS(PJRT_Buffer_Dimensions);
    dims.buffer = handle_;
    TPJRT_CALL(plugin, PJRT_Buffer_Dimensions, dims);
    auto list = std::make_shared<std::vector<int64_t>>();
    if (dims.num_dims > 0 && dims.dims != nullptr) list->assign(dims.dims, dims.dims + dims.num_dims);
    dims_ = std::move(list);
  } catch (...) {
    destroyHandle(plugin, handle_);
    --liveBuffers;
    throw;
  }
}

Buffer::Buffer(std::shared_ptr<Client> client, PJRT_Buffer* handle, int deviceIndex, BufferType type, Dims dims)
    : client_(std::move(client)), handle_(handle), deviceIndex_(deviceIndex), dims_(std::move(dims)), type_(type) {
  ++liveBuffers;
}

Buffer::~Buffer() {
  destroyHandle(client_->plugin(), handle_);
  --liveBuffers;
}

int64_t Buffer::liveCount() { return liveBuffers.load(); }

BufferType Buffer::elementType() const { return type_; }

size_t Buffer::onDeviceSizeInBytes() const {
  auto args = TPJRT_ARGS(PJRT_Buffer_OnDeviceSizeInBytes);
  args.buffer = handle_;
  TPJRT_CALL(client_->plugin(), PJRT_Buffer_OnDeviceSizeInBytes, args);
  return args.on_device_size_in_bytes;
}

size_t Buffer::hostSizeInBytes() const {
  size_t size = byteWidthOf(type_);
  for (int64_t d : *dims_) size *= static_cast<size_t>(d);
  return size;
}

void Buffer::toHost(void* dst, size_t size) const {
  const char* call = "PJRT_Buffer_ToHostBuffer";
  const Plugin& plugin = client_->plugin();
  if (byteWidthOf(type_) == 0)
    throw RuntimeError(kUsageError, call, "cannot copy a buffer of unsupported element type " + std::to_string(type_));
  if (size != hostSizeInBytes())
    throw RuntimeError(kUsageError, call, "destination holds " + std::to_string(size) + " bytes; the buffer needs " +
                                              std::to_string(hostSizeInBytes()));
  if (size == 0) return;
  if (dst == nullptr) throw RuntimeError(kUsageError, call, "destination is NULL");

  auto query = TPJRT_ARGS(PJRT_Buffer_ToHostBuffer);
  query.src = handle_;
  TPJRT_CALL(plugin, PJRT_Buffer_ToHostBuffer, query);
  detail::destroyEvent(plugin, query.event);
  if (query.dst_size != size)
    throw RuntimeError(PJRT_Error_Code_INTERNAL, call,
                       "the plugin wants " + std::to_string(query.dst_size) + " host bytes for a buffer of " +
                           std::to_string(size) + " dense bytes");

  auto copy = TPJRT_ARGS(PJRT_Buffer_ToHostBuffer);
  copy.src = handle_;
  copy.dst = dst;
  copy.dst_size = size;
  TPJRT_CALL(plugin, PJRT_Buffer_ToHostBuffer, copy);
  detail::awaitAndDestroy(plugin, copy.event, call);
}

namespace {

struct ReadyWait {
  const Plugin& plugin;
  std::function<void(const RuntimeError*)> done;
};

void readyCallback(PJRT_Error* error, void* userArg) {
  std::unique_ptr<ReadyWait> wait(static_cast<ReadyWait*>(userArg));
  detail::Status status = detail::takeError(wait->plugin, error);
  if (status.ok) return wait->done(nullptr);
  RuntimeError failure(status.code, "PJRT_Buffer_ReadyEvent", status.message);
  wait->done(&failure);
}

}  // namespace

// The event handle goes as soon as the callback is registered: the plugin keeps the callback until the
// buffer is defined.
void Buffer::whenReady(std::function<void(const RuntimeError*)> done) const {
  const Plugin& plugin = client_->plugin();
  plugin.requireSlot(PJRT_Event_OnReady_SLOT, PJRT_Event_OnReady_SINCE_MINOR, "PJRT_Event_OnReady");
  auto ready = TPJRT_ARGS(PJRT_Buffer_ReadyEvent);
  ready.buffer = handle_;
  TPJRT_CALL(plugin, PJRT_Buffer_ReadyEvent, ready);
  std::unique_ptr<ReadyWait> wait;
  try {
    wait = std::make_unique<ReadyWait>(ReadyWait{plugin, std::move(done)});
  } catch (...) {
    detail::destroyEvent(plugin, ready.event);
    throw;
  }
  auto onReady = TPJRT_ARGS(PJRT_Event_OnReady);
  onReady.event = ready.event;
  onReady.callback = readyCallback;
  onReady.user_arg = wait.get();
  detail::Status status = detail::takeError(plugin, plugin.api()->PJRT_Event_OnReady(&onReady));
  if (status.ok) wait.release();  // readyCallback owns it now
  detail::destroyEvent(plugin, ready.event);
  if (!status.ok) detail::raise(status, "PJRT_Event_OnReady");
}

bool Buffer::isDeleted() const {
  auto args = TPJRT_ARGS(PJRT_Buffer_IsDeleted);
  args.buffer = handle_;
  TPJRT_CALL(client_->plugin(), PJRT_Buffer_IsDeleted, args);
  return args.is_deleted;
}

void Buffer::awaitReady() const {
  const Plugin& plugin = client_->plugin();
  auto args = TPJRT_ARGS(PJRT_Buffer_ReadyEvent);
  args.buffer = handle_;
  TPJRT_CALL(plugin, PJRT_Buffer_ReadyEvent, args);
  detail::awaitAndDestroy(plugin, args.event, "PJRT_Buffer_ReadyEvent");
}

}  // namespace tpjrt
