/**
 * @file PyTorch's dtype constants, `torch.float32`, `torch.long`, …: each is the dtype's name, so
 * `{ dtype: torch.float32 }` and `{ dtype: "float32" }` are the same thing.
 */
export const float32 = "float32";
export const float64 = "float64";
export const float16 = "float16";
export const bfloat16 = "bfloat16";
export const int8 = "int8";
export const int16 = "int16";
export const int32 = "int32";
export const int64 = "int64";
export const uint8 = "uint8";
export const uint16 = "uint16";
export const uint32 = "uint32";
export const uint64 = "uint64";
export const bool = "bool";
// PyTorch's other names for the same dtypes.
export const float = float32;
export const double = float64;
export const half = float16;
export const short = int16;
export const int = int32;
export const long = int64;
