#pragma once
// The constants C++ and GLSL share, in one table: each row names a C++ constant (declared, with
// its value and its reason, where the code that owns it lives) and the shaders get them from
// shaders/common/shared_constants.glsl, generated from this table by `snowcap params --glsl`
// as config/default.toml is generated from the parameter table. A test fails when the file
// drifts from the table, or when a shader declares one of these names itself.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace snowcap {

struct ShaderConstant {
    std::string_view name; // as both languages spell it
    std::variant<float, int, std::uint32_t, std::span<const int>> value;
    std::string_view home; // the C++ declaration the value comes from
    std::string_view doc;
};

std::span<const ShaderConstant> shaderConstants();

// The text of shaders/common/shared_constants.glsl.
std::string shaderConstantsGlsl();

// A float as a GLSL literal that reads back to the same float, bit for bit: the shortest
// round-trip digits, with a point or an exponent so GLSL takes it as a float.
std::string glslFloatLiteral(float value);

} // namespace snowcap
