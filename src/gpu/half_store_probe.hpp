#pragma once
// How this driver rounds a shader's float output stored into an R16F target: Mesa llvmpipe
// truncates, most GPUs round to nearest even. The half-safe accumulate makes the answer
// irrelevant for snowcap's buffers; the tests and stats.json (gl.half_store_rounding) still
// report it, and the CPU
// reference uses it to model the original (non-half-safe) pass.

#include "core/snow_math.hpp"
#include "gpu/shader_library.hpp"

#include <string>
#include <variant>

namespace snowcap::gpu {

std::variant<HalfRounding, std::string> detectHalfStoreRounding(ShaderLibrary& shaders);

} // namespace snowcap::gpu
