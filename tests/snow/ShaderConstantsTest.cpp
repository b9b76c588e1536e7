// The constants C++ and GLSL share: the generated include matches the table, every float reads
// back bit for bit, and no shader keeps a copy of its own.
#include "TestSupport.hpp"
#include "snow/shader_constants.hpp"

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const fs::path kGenerated = "shaders/common/shared_constants.glsl";

TEST(ShaderConstants, TheCommittedIncludeIsTheTables) {
    EXPECT_TRUE(readText(test::sourceDir() / kGenerated) == shaderConstantsGlsl())
        << kGenerated << " differs from the table (src/snow/shader_constants.cpp); regenerate "
        << "it: build/release/snowcap params --glsl > " << kGenerated;
}

TEST(ShaderConstants, FloatLiteralsReadBackBitForBit) {
    for (float value : {1.0f / 262144.0f, 1.0e-3f, 0.2f, 0.05f, 120.0f, 1048576.0f, 0.005f,
                        3.14159265f, 1.0e-30f, 6.051e7f}) {
        const std::string literal = glslFloatLiteral(value);
        EXPECT_NE(literal.find_first_of(".e"), std::string::npos) << literal;
        EXPECT_EQ(std::bit_cast<std::uint32_t>(std::strtof(literal.c_str(), nullptr)),
                  std::bit_cast<std::uint32_t>(value))
            << literal;
    }
    EXPECT_EQ(glslFloatLiteral(120.0f), "120.0");
    EXPECT_EQ(glslFloatLiteral(0.25f), "0.25");
}

// A shader that declares a shared name itself holds a second copy that can drift.
TEST(ShaderConstants, NoShaderDeclaresASharedNameOfItsOwn) {
    const fs::path shaders = test::sourceDir() / "shaders";
    std::vector<std::string> copies;
    for (const auto& entry : fs::recursive_directory_iterator(shaders)) {
        if (!entry.is_regular_file() || entry.path() == test::sourceDir() / kGenerated)
            continue;
        const std::string text = readText(entry.path());
        for (const ShaderConstant& constant : shaderConstants()) {
            const std::regex declared("const\\s+\\w+\\s+" + std::string(constant.name) +
                                      "\\s*(\\[[^\\]]*\\])?\\s*=");
            if (std::regex_search(text, declared))
                copies.push_back(fs::relative(entry.path(), shaders).generic_string() + ": " +
                                 std::string(constant.name));
        }
    }
    EXPECT_TRUE(copies.empty()) << "shared constants declared outside " << kGenerated << ": "
                                << ::testing::PrintToString(copies);
}

} // namespace
} // namespace snowcap
