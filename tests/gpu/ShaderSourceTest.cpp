// The CPU half of the shader library: include expansion and error-line mapping.
#include "TestSupport.hpp"
#include "gpu/shader_library.hpp"

#include <gtest/gtest.h>

namespace snowcap::gpu {
namespace {

namespace fs = std::filesystem;

TEST(ShaderSource, ExpandsIncludesWithLineDirectivesAndDefines) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "main.frag", "#version 450 core\n"
                                        "// main\n"
                                        "#include \"lib/inc.glsl\"\n"
                                        "void main() {}\n");
    test::writeText(root / "lib/inc.glsl", "#include \"more.glsl\"\nfloat f() { return 1.0; }\n");
    test::writeText(root / "lib/more.glsl", "const float k = 2.0;\n");

    auto expanded = expandShaderSource(root, "main.frag", {{"MODE", "1"}});
    ASSERT_TRUE(std::holds_alternative<ExpandedSource>(expanded))
        << std::get<std::string>(expanded);
    const auto& source = std::get<ExpandedSource>(expanded);
    ASSERT_EQ(source.files.size(), 3u);
    EXPECT_EQ(source.files[0], "main.frag");
    EXPECT_EQ(source.files[1], "lib/inc.glsl");
    EXPECT_EQ(source.files[2], "lib/more.glsl"); // relative to the including file's folder
    EXPECT_EQ(source.text, "#version 450 core\n"
                           "#define MODE 1\n"
                           "#line 2 0\n"
                           "// main\n"
                           "#line 1 1\n"
                           "#line 1 2\n"
                           "const float k = 2.0;\n"
                           "#line 2 1\n"
                           "float f() { return 1.0; }\n"
                           "#line 4 0\n"
                           "void main() {}\n");
}

TEST(ShaderSource, IncludesEachFileOnce) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "main.frag",
                    "#version 450 core\n#include \"a.glsl\"\n#include \"a.glsl\"\n");
    test::writeText(root / "a.glsl", "float a;\n");
    auto expanded = expandShaderSource(root, "main.frag", {});
    ASSERT_TRUE(std::holds_alternative<ExpandedSource>(expanded));
    const std::string& text = std::get<ExpandedSource>(expanded).text;
    EXPECT_EQ(text.find("float a;"), text.rfind("float a;"));
}

// A file first met inside a conditional is guarded there and again where it comes later, so
// the compiler, which knows the branch, keeps exactly one copy; `#line` follows each branch.
TEST(ShaderSource, ConditionalIncludeIsGuardedAndLinesRestoredAfterTheBranch) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "main.frag", "#version 450 core\n"
                                        "#if A\n"
                                        "#include \"a.glsl\"\n"
                                        "#endif\n"
                                        "#include \"a.glsl\"\n"
                                        "#include \"a.glsl\"\n");
    test::writeText(root / "a.glsl", "float a;\n");
    auto expanded = expandShaderSource(root, "main.frag", {});
    ASSERT_TRUE(std::holds_alternative<ExpandedSource>(expanded))
        << std::get<std::string>(expanded);
    const auto& source = std::get<ExpandedSource>(expanded);
    ASSERT_EQ(source.files.size(), 2u);
    EXPECT_EQ(source.text, "#version 450 core\n"
                           "#line 2 0\n"
                           "#if A\n"
                           "#ifndef SNOWCAP_INCLUDED_1\n"
                           "#define SNOWCAP_INCLUDED_1\n"
                           "#line 1 1\n"
                           "float a;\n"
                           "#endif\n"
                           "#line 4 0\n"
                           "#endif\n"
                           "#line 5 0\n"
                           "#ifndef SNOWCAP_INCLUDED_1\n"
                           "#define SNOWCAP_INCLUDED_1\n"
                           "#line 1 1\n"
                           "float a;\n"
                           "#endif\n"
                           "#line 6 0\n"
                           "#line 7 0\n"); // the third include: surely in already, left out
}

TEST(ShaderSource, MissingIncludeNamesFileAndLine) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "main.frag", "#version 450 core\n\n#include \"nope.glsl\"\n");
    auto expanded = expandShaderSource(root, "main.frag", {});
    ASSERT_TRUE(std::holds_alternative<std::string>(expanded));
    EXPECT_EQ(std::get<std::string>(expanded), "main.frag:3: cannot find include \"nope.glsl\"");
}

TEST(ShaderSource, MissingVersionAndMissingFileAreErrors) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "main.frag", "void main() {}\n");
    auto noVersion = expandShaderSource(root, "main.frag", {});
    ASSERT_TRUE(std::holds_alternative<std::string>(noVersion));
    EXPECT_EQ(std::get<std::string>(noVersion), "main.frag:1: the first line must be #version");
    auto missing = expandShaderSource(root, "absent.frag", {});
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_EQ(std::get<std::string>(missing), "absent.frag: cannot read shader file");
}

TEST(ShaderSource, MapsMesaAndNvidiaLogsToFiles) {
    const std::vector<fs::path> files = {"snow/main.frag", "snow/inc.glsl"};
    EXPECT_EQ(mapInfoLog("1:7(12): error: `x' undeclared\n", files),
              "shaders/snow/inc.glsl:7: error: `x' undeclared");
    EXPECT_EQ(mapInfoLog("0(3) : error C1008: undefined variable \"y\"", files),
              "shaders/snow/main.frag:3: error C1008: undefined variable \"y\"");
    EXPECT_EQ(mapInfoLog("ERROR: 1:9: 'z' : undeclared identifier", files),
              "shaders/snow/inc.glsl:9: error: 'z' : undeclared identifier");
    EXPECT_EQ(mapInfoLog("something else", files), "something else");
}

} // namespace
} // namespace snowcap::gpu
