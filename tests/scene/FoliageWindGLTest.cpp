// The wind's bend on the GPU (shaders/common/wind.glsl) against its CPU reference
// (scene/foliage_wind.cpp): every vertex of the bundled grass tuft and bush, several plants
// (turned, scaled, moved), times and pushers, read back from a float target.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/shader_library.hpp"
#include "render/wind_buffer.hpp"
#include "scene/foliage.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct FoliageWind : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    GLuint program = 0;

    void SetUp() override {
        const std::string dir = "../tests/scene/shaders";
        auto loaded = shaders.load({"wind_offset",
                                    {{GL_VERTEX_SHADER, dir + "/wind_offset.vert"},
                                     {GL_FRAGMENT_SHADER, dir + "/wind_offset.frag"}},
                                    {}});
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        program = std::get<gpu::ShaderProgram*>(loaded)->id();
    }

    // windOffset of each of `positions` for one plant, as the shader computes it.
    std::vector<glm::vec3> gpuOffsets(const std::vector<glm::vec3>& positions,
                                      const WindState& wind, glm::vec4 sway,
                                      const glm::mat4& model) {
        std::vector<glm::vec4> padded;
        for (const glm::vec3& p : positions)
            padded.emplace_back(p, 0.0f);
        const gpu::Buffer input(padded.size() * sizeof(glm::vec4), padded.data(), "test.local");
        WindBuffer windBuffer;
        windBuffer.upload(wind);
        const int count = int(positions.size());
        gpu::Texture2D target(count, 1, gpu::TextureFormat::RGBA32F, "test.offsets");
        gpu::Framebuffer framebuffer(&target, nullptr, "test.offsets");
        EXPECT_EQ(framebuffer.completeness(), "");
        gpu::VertexArray vertexArray("test.points");
        framebuffer.bind();
        glDisable(GL_SCISSOR_TEST);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
        glEnable(GL_PROGRAM_POINT_SIZE);
        glUseProgram(program);
        glUniformMatrix4fv(1, 1, GL_FALSE, &model[0][0]);
        glUniform4fv(2, 1, &sway[0]);
        glUniform1i(3, count);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, input.id());
        windBuffer.bind();
        glBindVertexArray(vertexArray.id());
        glDrawArrays(GL_POINTS, 0, count);
        const std::vector<float> texels = target.readFloats();
        std::vector<glm::vec3> out;
        for (int i = 0; i < count; ++i)
            out.emplace_back(texels[4 * i], texels[4 * i + 1], texels[4 * i + 2]);
        return out;
    }
};

TEST_F(FoliageWind, ShaderBendMatchesTheCpuReference) {
    FoliageSettings settings;
    settings.name = "m";
    settings.count = 3;
    settings.scaleRange = {0.6, 1.4};
    WindSettings weather;
    weather.directionDeg = 30.0;
    weather.strength = 0.35;
    weather.gustHz = 0.7;
    const WindPusher pushers[] = {{{20.0f, 10.0f}, -30.0f, 25.0f},
                                  {{-150.0f, 80.0f}, 40.0f, 30.0f}};
    for (const char* mesh : {"grass_tuft", "bush"}) {
        settings.mesh = mesh;
        auto loaded = loadFoliage(settings, "foliage[0]", test::sourceDir(), -30.0);
        ASSERT_TRUE(std::holds_alternative<Foliage>(loaded))
            << std::get<FoliageError>(loaded).line();
        const Foliage& foliage = std::get<Foliage>(loaded);
        int moved = 0;
        for (const FoliagePlant& plant : foliage.plants)
            for (double t : {0.0, 1.37, 12.5}) {
                const WindState wind = windAt(weather, t, pushers);
                const glm::mat4 model = foliage.modelOf(plant);
                const glm::vec4 sway = foliage.swayOf(plant);
                const std::vector<glm::vec3> gpu =
                    gpuOffsets(foliage.mesh.positions, wind, sway, model);
                float worst = 0.0f;
                for (std::size_t v = 0; v < gpu.size(); ++v) {
                    const glm::vec3 cpu = windOffset(wind, foliage.mesh.positions[v], sway, model);
                    worst = std::max(worst, glm::length(gpu[v] - cpu));
                    moved += glm::length(cpu) > 1.0f;
                }
                // sin, sqrt and length differ in the last bits between a driver and libm; on
                // offsets of tens of cm that is well under a hundredth of a millimetre.
                EXPECT_LT(worst, 2e-3f) << mesh << " t = " << t;
            }
        EXPECT_GT(moved, 100) << mesh << ": the wind must bend it for the test to mean anything";
    }
}

} // namespace
} // namespace snowcap
