// Binding slots declared once (gpu/binding_slots.hpp): every program the library links is
// checked against the table, so a shader whose layout(binding) disagrees with the C++ fails
// to load with one line naming the program, the resource and both slots.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/binding_slots.hpp"
#include "gpu/shader_library.hpp"

#include <gtest/gtest.h>

namespace snowcap::gpu {
namespace {

namespace fs = std::filesystem;

const char* kVertex = "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n";

// A fragment shader sampling `declaration` (the sampler or block as written in its GLSL).
std::variant<ShaderProgram*, std::string> loadWith(const std::string& declaration,
                                                   const std::string& use) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "test.frag", "#version 450 core\n" + declaration +
                                            "\nout vec4 colour;\nvoid main() { colour = " + use +
                                            "; }\n");
    static std::vector<std::unique_ptr<ShaderLibrary>> libraries; // programs outlive the call
    libraries.push_back(std::make_unique<ShaderLibrary>(root));
    return libraries.back()->load(
        {"slot_test", {{GL_VERTEX_SHADER, "test.vert"}, {GL_FRAGMENT_SHADER, "test.frag"}}, {}});
}

TEST(BindingSlots, TheDeclaredSlotLinks) {
    auto loaded = loadWith("layout(binding = 2) uniform sampler2D persistentBuffer;",
                           "texture(persistentBuffer, vec2(0.5))");
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(loaded)) << std::get<std::string>(loaded);
    EXPECT_EQ(*declaredSlot("persistentBuffer", BindingKind::Texture), slot::kPersistentBuffer);
}

TEST(BindingSlots, AMismatchedSamplerIsOneLineNamingShaderAndSlot) {
    auto loaded = loadWith("layout(binding = 3) uniform sampler2D persistentBuffer;",
                           "texture(persistentBuffer, vec2(0.5))");
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    const std::string error = std::get<std::string>(loaded);
    EXPECT_EQ(error, "slot_test: sampler 'persistentBuffer' is bound at 3, "
                     "gpu/binding_slots.hpp declares 2");
}

TEST(BindingSlots, AMismatchedUniformBlockIsCaught) {
    auto loaded = loadWith("layout(std140, binding = 3) uniform SnowParams { vec4 a; };", "a");
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    EXPECT_EQ(std::get<std::string>(loaded), "slot_test: uniform block 'SnowParams' is bound at "
                                             "3, gpu/binding_slots.hpp declares 0");
}

TEST(BindingSlots, AnUndeclaredSamplerIsCaught) {
    auto loaded = loadWith("layout(binding = 0) uniform sampler2D somethingNew;",
                           "texture(somethingNew, vec2(0.5))");
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    EXPECT_NE(std::get<std::string>(loaded).find("'somethingNew' is bound at 0 and "
                                                 "gpu/binding_slots.hpp does not declare it"),
              std::string::npos);
}

TEST(BindingSlots, AnArrayIsCheckedAtItsFirstElement) {
    auto good = loadWith("layout(binding = 4) uniform sampler2D previous[2];",
                         "texture(previous[0], vec2(0.5)) + texture(previous[1], vec2(0.5))");
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(good)) << std::get<std::string>(good);
    auto bad = loadWith("layout(binding = 5) uniform sampler2D previous[2];",
                        "texture(previous[0], vec2(0.5)) + texture(previous[1], vec2(0.5))");
    ASSERT_TRUE(std::holds_alternative<std::string>(bad));
}

} // namespace
} // namespace snowcap::gpu
