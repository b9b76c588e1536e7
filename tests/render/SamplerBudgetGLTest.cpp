// The sampler budget (Snow that remembers): the snow material binds a fixed, small
// number of snow textures whatever the switches. Counts the active samplers of every linked program
// variant.
#include "GLTestSupport.hpp"
#include "render/snow_surface_pass.hpp"

#include <gtest/gtest.h>
#include <set>

namespace snowcap {
namespace {

// One snow texture: the persistent buffer (or its prepass-blurred copy, on the same unit).
// Raise it only with a measured reason: every snow sampler is paid on every surface pixel.
constexpr int kSnowSamplerBudget = 1;

bool isSampler(GLenum type) {
    static const std::set<GLenum> samplers = {
        GL_SAMPLER_1D,
        GL_SAMPLER_2D,
        GL_SAMPLER_3D,
        GL_SAMPLER_CUBE,
        GL_SAMPLER_2D_SHADOW,
        GL_SAMPLER_2D_ARRAY,
        GL_SAMPLER_BUFFER,
        GL_SAMPLER_2D_RECT,
        GL_INT_SAMPLER_2D,
        GL_UNSIGNED_INT_SAMPLER_2D,
        GL_SAMPLER_2D_MULTISAMPLE,
        GL_SAMPLER_CUBE_MAP_ARRAY,
    };
    return samplers.count(type) > 0;
}

TEST(SamplerBudget, EverySurfaceVariantBindsAtMostTheBudget) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    int variants = 0;
    const std::vector<SurfaceVariant> all = SnowSurfacePass::allVariants();
    for (const SurfaceVariant& v : all) {
        auto loaded = shaders.load(SnowSurfacePass::surfaceProgram(v));
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        const GLuint program = std::get<gpu::ShaderProgram*>(loaded)->id();
        GLint uniforms = 0;
        glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &uniforms);
        std::set<GLint> units;
        int samplers = 0, shadowSamplers = 0, snowpackStates = 0, groundTextures = 0,
            terrainFields = 0;
        for (GLint u = 0; u < uniforms; ++u) {
            char name[256];
            GLint size = 0;
            GLenum type = 0;
            glGetActiveUniform(program, static_cast<GLuint>(u), sizeof(name), nullptr, &size, &type,
                               name);
            // The landscape's baked detail noise is a texture of the ground, not of the snow, and
            // the deformers' shadow map is the sun's: neither is a snow texture. The shadow map
            // is counted on its own: one, and only where the variant has shadows.
            if (isSampler(type) && std::string(name) == "deformerShadow") {
                shadowSamplers += size;
                continue;
            }
            // A snowpack surface on a blurred rung reads the blurred copy of its depth (the snow
            // texture) and, beside it, the unblurred state for mass and water: one tap, where
            // spiralling the RGBA32F state itself cost seven 49-tap spirals a pixel (frame_ab
            // snowpack_b 3.3 x the decay frame before, 1.1-1.4 x after; docs/snowpack.md).
            if (isSampler(type) && std::string(name) == "snowpackState") {
                snowpackStates += size;
                continue;
            }
            // [ground] kind = "texture": the ground's own picture, not the snow's; one, and only
            // where the variant has it.
            if (isSampler(type) && std::string(name) == "groundTexture") {
                groundTextures += size;
                continue;
            }
            // [terrain]: the ground's shape under the snow, not the snow; one, and only where
            // the variant stands on a terrain.
            if (isSampler(type) && std::string(name) == "terrainField") {
                terrainFields += size;
                continue;
            }
            // The low-rate path's own depth, which its Shade stage reads back, is the
            // surface's geometry, not the snow either.
            if (!isSampler(type) || std::string(name) == "landscapeDetail" ||
                std::string(name) == "surfaceDepth")
                continue;
            samplers += size;
            GLint unit = -1;
            glGetUniformiv(program, glGetUniformLocation(program, name), &unit);
            units.insert(unit);
        }
        const std::string variant = SnowSurfacePass::surfaceProgram(v).name;
        RecordProperty(variant, samplers);
        if (v.flat)
            EXPECT_EQ(samplers, 0) << variant; // untouched snow: nothing to read
        else
            EXPECT_GE(samplers, 1) << variant; // the material does read the snow
        EXPECT_LE(samplers, kSnowSamplerBudget) << variant;
        EXPECT_LE(static_cast<int>(units.size()), kSnowSamplerBudget) << variant;
        EXPECT_EQ(shadowSamplers, v.shadows ? 1 : 0) << variant;
        EXPECT_LE(snowpackStates, v.snowpack ? 1 : 0) << variant;
        EXPECT_EQ(groundTextures, v.groundTexture ? 1 : 0) << variant;
        EXPECT_EQ(terrainFields, v.terrain ? 1 : 0) << variant;
        ++variants;
    }
    EXPECT_EQ(variants, static_cast<int>(all.size()));
    // (geometry x blur x normals x rims x format, and flat) x the look's six switch sets
    EXPECT_GE(variants, 33 * 6);
}

} // namespace
} // namespace snowcap
