#include "render/snow_surface_pass.hpp"

// Which surface programs there are: a variant from a sim's settings and the look, its program's
// defines, and every variant a frame can ask for (compiled once at start-up).

#include "core/config.hpp"
#include "core/quality.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace snowcap {

SurfaceVariant SurfaceVariant::withLook(const LookSettings& look) const {
    SurfaceVariant variant = *this;
    variant.specular = look.specular;
    variant.sparkle = look.sparkle;
    variant.shadows = look.deformerShadows;
    return variant;
}

SurfaceVariant SurfaceVariant::at(SurfaceStage stage) const {
    SurfaceVariant variant = *this;
    variant.stage = stage;
    if (stage == SurfaceStage::Shade)
        variant.geometry = SurfaceGeometry::VertexGrid;
    if (stage == SurfaceStage::Depth) // no material: none of the look's switches
        variant.specular = variant.sparkle = variant.shadows = variant.groundTexture = false;
    return variant;
}

SurfaceVariant SurfaceVariant::of(const SimSettings& sim, SurfaceGeometry geometry,
                                  const LookSettings& look) {
    // Every blur but per_pixel leaves a pre-blurred copy that the material reads with one tap;
    // the separable one also carries its slope when the buffer is r16f (SnowSim::
    // blurCarriesSlope), which the material then uses instead of four more taps.
    BlurMode blur = sim.blur;
    if (blur == BlurMode::Separable && sim.format != BufferFormat::R16F)
        blur = BlurMode::Prepass;
    SurfaceVariant variant{geometry, blur, sim.normals, sim.rims, sim.format};
    if (sim.model == SimModel::Snowpack) {
        // The depth's blurred copy (SnowSim::blurDraws on the state's R) is read with one tap,
        // as the prepass copy is: the separable copy's slope is the mask's (Mask_Multi,
        // saturated), not the depth's, so the material takes its own four taps of it.
        const BlurMode depthBlur =
            sim.blur == BlurMode::PerPixel ? BlurMode::PerPixel : BlurMode::Prepass;
        variant =
            SurfaceVariant{geometry, depthBlur, sim.normals, RimMode::Off, BufferFormat::R16F};
        variant.snowpack = true;
    }
    return variant.withLook(look);
}

gpu::ProgramDesc SnowSurfacePass::surfaceProgram(const SurfaceVariant& variant) {
    auto flag = [](bool on) {
        return std::string(on ? "1" : "0");
    };
    const gpu::Defines defines = {{"BLUR_PREPASS", flag(variant.blur != BlurMode::PerPixel)},
                                  {"BLUR_SLOPE", flag(variant.blur == BlurMode::Separable)},
                                  {"NORMALS_SOBEL", flag(variant.normals == NormalMode::Sobel)},
                                  {"RIMS", flag(variant.rims == RimMode::On)},
                                  {"FORMAT_RGBA", flag(variant.format == BufferFormat::RGBA16F)},
                                  {"NO_SNOW", flag(variant.flat)},
                                  {"SNOWPACK", flag(variant.snowpack && !variant.flat)},
                                  {"SPECULAR", flag(variant.specular)},
                                  {"SPARKLE", flag(variant.sparkle)},
                                  {"SHADOWS", flag(variant.shadows)},
                                  {"GROUND_TEXTURE", flag(variant.groundTexture)},
                                  {"GROUND_PRINTS", flag(variant.groundPrints)},
                                  {"TERRAIN", flag(variant.terrain)},
                                  {"DEFERRED", flag(variant.stage == SurfaceStage::Shade)}};
    // The look's part of the name: ".diffuse" with every switch off.
    std::string look;
    if (variant.specular)
        look += ".specular";
    if (variant.sparkle)
        look += ".sparkle";
    if (variant.shadows)
        look += ".shadows";
    if (look.empty())
        look = ".diffuse";
    if (variant.groundTexture)
        look += ".ground_texture";
    if (variant.stage == SurfaceStage::Depth)
        look = ".depth";      // no material: the look's switches change nothing
    if (variant.groundPrints) // the geometry's too: the Depth stage keeps it
        look += ".ground_prints";
    if (variant.stage == SurfaceStage::Shade)
        look += ".deferred";
    if (variant.snowpack && !variant.flat)
        look = ".snowpack" + look;
    if (variant.terrain) // the geometry's and the normal's: every stage keeps it
        look += ".terrain";
    const std::string name =
        variant.flat ? fmt::format("snow_surface.{}.flat{}", toString(variant.geometry), look)
                     : fmt::format("snow_surface.{}.{}.{}.rims_{}.{}{}", toString(variant.geometry),
                                   toString(variant.blur), toString(variant.normals),
                                   toString(variant.rims), toString(variant.format), look);
    if (variant.stage == SurfaceStage::Shade)
        return {name,
                {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                 {GL_FRAGMENT_SHADER, "surface/surface.frag"}},
                defines};
    const char* fragment =
        variant.stage == SurfaceStage::Depth ? "surface/depth_only.frag" : "surface/surface.frag";
    if (variant.geometry == SurfaceGeometry::VertexGrid)
        return {name,
                {{GL_VERTEX_SHADER, "surface/surface.vert"}, {GL_FRAGMENT_SHADER, fragment}},
                defines};
    return {name,
            {{GL_VERTEX_SHADER, "surface/surface_patch.vert"},
             {GL_TESS_CONTROL_SHADER, "surface/surface.tesc"},
             {GL_TESS_EVALUATION_SHADER, "surface/surface.tese"},
             {GL_FRAGMENT_SHADER, fragment}},
            defines};
}

std::vector<SurfaceVariant> SnowSurfacePass::allVariants() {
    // The snow's switches, each with every combination of the look's (sparkle only with
    // specular: it is a part of the lobe).
    std::vector<LookSettings> looks;
    for (int bits = 0; bits < 8; ++bits) {
        LookSettings look;
        look.specular = (bits & 1) != 0;
        look.sparkle = (bits & 2) != 0;
        look.deformerShadows = (bits & 4) != 0;
        if (!look.sparkle || look.specular)
            looks.push_back(look);
    }
    std::vector<SurfaceVariant> variants;
    for (SurfaceGeometry geometry : allValues<SurfaceGeometry>())
        for (BlurMode blur : allValues<BlurMode>())
            for (NormalMode normals : allValues<NormalMode>())
                for (RimMode rims : allValues<RimMode>())
                    for (BufferFormat format : allValues<BufferFormat>()) {
                        SimSettings sim;
                        sim.blur = blur;
                        sim.normals = normals;
                        sim.rims = rims;
                        sim.format = format;
                        for (const LookSettings& look : looks) {
                            const SurfaceVariant variant = SurfaceVariant::of(sim, geometry, look);
                            if (std::find(variants.begin(), variants.end(), variant) ==
                                variants.end())
                                variants.push_back(variant);
                        }
                    }
    for (SurfaceGeometry geometry : allValues<SurfaceGeometry>())
        for (NormalMode normals : allValues<NormalMode>()) {
            SimSettings sim;
            sim.model = SimModel::Snowpack;
            sim.normals = normals;
            for (const LookSettings& look : looks)
                variants.push_back(SurfaceVariant::of(sim, geometry, look));
        }
    for (const LookSettings& look : looks)
        variants.push_back(SurfaceVariant::flatSnow().withLook(look));
    // The ground texture ([ground] kind = "texture") on the default decay and snowpack
    // surfaces, with every look: it adds one sampler of the ground, not of the snow.
    for (SimModel model : {SimModel::Decay, SimModel::Snowpack})
        for (const LookSettings& look : looks) {
            SimSettings sim;
            sim.model = model;
            SurfaceVariant variant = SurfaceVariant::of(sim, SurfaceGeometry::VertexGrid, look);
            variant.groundTexture = true;
            variants.push_back(variant);
        }
    // A snowpack on a ground that takes prints ([ground] kind = "mud"), on both geometries
    // with every look: no sampler of its own (the state is bound already).
    for (SurfaceGeometry geometry : allValues<SurfaceGeometry>())
        for (const LookSettings& look : looks) {
            SimSettings sim;
            sim.model = SimModel::Snowpack;
            SurfaceVariant variant = SurfaceVariant::of(sim, geometry, look);
            variant.groundPrints = true;
            variants.push_back(variant);
        }
    // On a terrain: the default decay and snowpack surfaces on both geometries, and the flat
    // snow of the skirt, with every look: one more block and sampler, of the ground's shape.
    for (SurfaceGeometry geometry : allValues<SurfaceGeometry>())
        for (SimModel model : {SimModel::Decay, SimModel::Snowpack})
            for (const LookSettings& look : looks) {
                SimSettings sim;
                sim.model = model;
                SurfaceVariant variant = SurfaceVariant::of(sim, geometry, look);
                variant.terrain = true;
                variants.push_back(variant);
            }
    for (const LookSettings& look : looks) {
        SurfaceVariant variant = SurfaceVariant::flatSnow().withLook(look);
        variant.terrain = true;
        variants.push_back(variant);
    }
    // The lower-rate lit path's two stages of each (render/surface_upsample.hpp).
    const std::size_t forward = variants.size();
    for (std::size_t i = 0; i < forward; ++i)
        for (SurfaceStage stage : {SurfaceStage::Depth, SurfaceStage::Shade}) {
            const SurfaceVariant variant = variants[i].at(stage);
            if (std::find(variants.begin(), variants.end(), variant) == variants.end())
                variants.push_back(variant);
        }
    return variants;
}

} // namespace snowcap
