// The shader library against a real compiler: error lines in included files, hot reload.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/shader_library.hpp"

#include <gtest/gtest.h>
#include <thread>

namespace snowcap::gpu {
namespace {

namespace fs = std::filesystem;

const char* kVertex = "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n";

ProgramDesc testProgram() {
    return {"test", {{GL_VERTEX_SHADER, "test.vert"}, {GL_FRAGMENT_SHADER, "test.frag"}}, {}};
}

// Moves a file's timestamp forward so a reload sees it changed even within one clock tick.
void touch(const fs::path& path) {
    fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(1));
}

TEST(ShaderLibrary, CompileErrorInIncludeIsReportedAtThatFilesLine) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "test.frag", "#version 450 core\n"
                                        "#include \"common/colour.glsl\"\n"
                                        "out vec4 c;\n"
                                        "void main() { c = colour(); }\n");
    test::writeText(root / "common/colour.glsl", "// line 1\n"
                                                 "vec4 colour() {\n"
                                                 "    return undeclaredThing;\n"
                                                 "}\n");
    ShaderLibrary library(root);
    auto result = library.load(testProgram());
    ASSERT_TRUE(std::holds_alternative<std::string>(result));
    const std::string& error = std::get<std::string>(result);
    EXPECT_NE(error.find("shaders/common/colour.glsl:3:"), std::string::npos) << error;
    EXPECT_NE(error.find("undeclaredThing"), std::string::npos) << error;
}

TEST(ShaderLibrary, ErrorAfterAnIncludeIsReportedInTheMainFile) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "test.frag", "#version 450 core\n"
                                        "#include \"inc.glsl\"\n"
                                        "out vec4 c;\n"
                                        "void main() { c = vec4(missing); }\n");
    test::writeText(root / "inc.glsl", "float a = 1.0;\nfloat b = 2.0;\n");
    ShaderLibrary library(root);
    auto result = library.load(testProgram());
    ASSERT_TRUE(std::holds_alternative<std::string>(result));
    EXPECT_NE(std::get<std::string>(result).find("shaders/test.frag:4:"), std::string::npos)
        << std::get<std::string>(result);
}

// An error after a conditional include is reported at the main file's own line, whichever
// branch the compiler keeps: a dropped branch skips the `#line` that follows its include but
// still counts the included lines, so the loader puts the numbering back after the branch.
TEST(ShaderLibrary, ErrorAfterAConditionalIncludeIsReportedAtItsLine) {
    for (const char* withShade : {"0", "1"}) {
        const fs::path root = test::scratchDir();
        test::writeText(root / "test.vert", kVertex);
        test::writeText(root / "test.frag", "#version 450 core\n"
                                            "#if WITH_SHADE\n"
                                            "#include \"shade.glsl\"\n"
                                            "#else\n"
                                            "float shade() { return 1.0; }\n"
                                            "#endif\n"
                                            "out vec4 c;\n"
                                            "void main() { c = vec4(missing); }\n");
        test::writeText(root / "shade.glsl", "// two\n// three\n// four\n"
                                             "float shade() { return 0.5; }\n");
        ShaderLibrary library(root);
        ProgramDesc desc = testProgram();
        desc.defines = {{"WITH_SHADE", withShade}};
        auto result = library.load(desc);
        ASSERT_TRUE(std::holds_alternative<std::string>(result));
        EXPECT_NE(std::get<std::string>(result).find("shaders/test.frag:8:"), std::string::npos)
            << "WITH_SHADE " << withShade << ": " << std::get<std::string>(result);
    }
}

// An include in a branch the compiler drops does not count as included: the same include
// later, outside the branch, still brings the function in (and when the branch is taken, the
// second copy is skipped rather than defining it twice).
TEST(ShaderLibrary, IncludeInADroppedBranchIsIncludedLater) {
    for (const char* early : {"0", "1"}) {
        const fs::path root = test::scratchDir();
        test::writeText(root / "test.vert", kVertex);
        test::writeText(root / "test.frag", "#version 450 core\n"
                                            "#if EARLY\n"
                                            "#include \"shade.glsl\"\n"
                                            "#endif\n"
                                            "#include \"shade.glsl\"\n"
                                            "out vec4 c;\n"
                                            "void main() { c = vec4(shade()); }\n");
        test::writeText(root / "shade.glsl", "float shade() { return 0.5; }\n");
        ShaderLibrary library(root);
        ProgramDesc desc = testProgram();
        desc.defines = {{"EARLY", early}};
        auto result = library.load(desc);
        EXPECT_TRUE(std::holds_alternative<ShaderProgram*>(result))
            << "EARLY " << early << ": " << std::get<std::string>(result);
    }
}

TEST(ShaderLibrary, SameDescriptionIsBuiltOnce) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "test.frag",
                    "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1); }\n");
    ShaderLibrary library(root);
    auto a = library.load(testProgram());
    auto b = library.load(testProgram());
    ProgramDesc variant = testProgram();
    variant.defines = {{"X", "1"}};
    auto c = library.load(variant);
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(a));
    EXPECT_EQ(std::get<ShaderProgram*>(a), std::get<ShaderProgram*>(b));
    EXPECT_NE(std::get<ShaderProgram*>(a), std::get<ShaderProgram*>(c));
}

TEST(ShaderLibrary, HotReloadKeepsTheLastGoodProgramOnABrokenEdit) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "inc.glsl", "vec4 colour() { return vec4(1.0); }\n");
    test::writeText(root / "test.frag", "#version 450 core\n#include \"inc.glsl\"\n"
                                        "out vec4 c;\nvoid main() { c = colour(); }\n");
    ShaderLibrary library(root);
    auto loaded = library.load(testProgram());
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(loaded));
    ShaderProgram* program = std::get<ShaderProgram*>(loaded);
    const GLuint goodId = program->id();
    EXPECT_EQ(library.reloadChanged(), 0); // nothing changed yet

    // Break the include: the program that depends on it keeps running.
    test::writeText(root / "inc.glsl", "vec4 colour() { return vec4(oops); }\n");
    touch(root / "inc.glsl");
    EXPECT_EQ(library.reloadChanged(), 0);
    EXPECT_EQ(program->id(), goodId);
    EXPECT_TRUE(glIsProgram(goodId));
    EXPECT_NE(program->reloadError().find("shaders/inc.glsl:1:"), std::string::npos)
        << program->reloadError();
    EXPECT_EQ(library.reloadChanged(), 0); // no retry until the file changes again

    // Fix it: the new program replaces the old one.
    test::writeText(root / "inc.glsl", "vec4 colour() { return vec4(0.5); }\n");
    touch(root / "inc.glsl");
    EXPECT_EQ(library.reloadChanged(), 1);
    EXPECT_TRUE(program->reloadError().empty());
    EXPECT_EQ(program->generation(), 1);
    EXPECT_FALSE(glIsProgram(goodId)); // the old one was released
}

// An edit that includes a file not written yet fails; writing that file must retry the build
// (the library watches the include it could not find), not wait for another edit or F5.
TEST(ShaderLibrary, HotReloadRetriesWhenAMissingIncludeAppears) {
    const fs::path root = test::scratchDir();
    test::writeText(root / "test.vert", kVertex);
    test::writeText(root / "test.frag",
                    "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    ShaderLibrary library(root);
    auto loaded = library.load(testProgram());
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(loaded));
    ShaderProgram* program = std::get<ShaderProgram*>(loaded);

    test::writeText(root / "test.frag", "#version 450 core\n#include \"later.glsl\"\n"
                                        "out vec4 c;\nvoid main() { c = colour(); }\n");
    touch(root / "test.frag");
    EXPECT_EQ(library.reloadChanged(), 0);
    EXPECT_NE(program->reloadError().find("shaders/test.frag:2: cannot find include"),
              std::string::npos)
        << program->reloadError();
    EXPECT_EQ(library.reloadChanged(), 0); // nothing new on disk: no retry

    test::writeText(root / "later.glsl", "vec4 colour() { return vec4(0.5); }\n");
    EXPECT_EQ(library.reloadChanged(), 1);
    EXPECT_TRUE(program->reloadError().empty()) << program->reloadError();
    EXPECT_EQ(program->generation(), 1);
}

TEST(ShaderLibrary, EveryShippedProgramCompiles) {
    // The passes' shaders must build on this driver; variants are exercised by their tests.
    ShaderLibrary library(defaultShaderRoot());
    for (const auto& [vertex, fragment] : std::vector<std::pair<std::string, std::string>>{
             {"common/fullscreen.vert", "snow/accumulate.frag"},
             {"capture/capture.vert", "capture/capture.frag"},
             {"common/fullscreen.vert", "debug/buffer_view.frag"}}) {
        ProgramDesc desc{fragment,
                         {{GL_VERTEX_SHADER, vertex}, {GL_FRAGMENT_SHADER, fragment}},
                         {{"ACCUMULATE_MAX", "0"}, {"HALF_SAFE", "1"}}};
        auto result = library.load(desc);
        EXPECT_TRUE(std::holds_alternative<ShaderProgram*>(result))
            << std::get<std::string>(result);
    }
}

} // namespace
} // namespace snowcap::gpu
