#pragma once
// The snow surface's material variants: the switches compiled into its programs
// (render/snow_surface_pass.cpp defines their helpers and builds the programs).

#include "core/settings.hpp"

namespace snowcap {

// Which part of the surface a program draws. Forward: the geometry and the material in one
// pass (every pixel at full resolution). The lower-rate lit path splits them: Depth draws the
// geometry alone (no colour), then Shade runs the material once a pixel over a full-screen
// triangle, its world point taken back from that depth. Drawn with the geometry, llvmpipe shades
// every 4 x 4 block a small triangle touches in full, so at half resolution, where the grid's
// triangles cover a few pixels each, a pixel was shaded several times over.
enum class SurfaceStage { Forward, Depth, Shade };

// The material's switches that are compiled into its program rather than branched on at run
// time. A CPU rasteriser (llvmpipe) executes both sides of a branch whose condition it cannot
// prove uniform, so rims or a Sobel filter switched off in a uniform still cost every pixel
// their taps (measured: the rim loops alone were 0.4 s of a 0.5 s surface at 1280 x 720).
struct SurfaceVariant {
    SurfaceGeometry geometry = SurfaceGeometry::VertexGrid;
    BlurMode blur = BlurMode::PerPixel;
    NormalMode normals = NormalMode::HeightToNormal;
    RimMode rims = RimMode::Off;
    BufferFormat format = BufferFormat::R16F;
    // Untouched snow only: no buffer read, Snow_Mask 0 (the skirt outside the region, whose
    // pixels are all untouched, and snow.quality = "off").
    bool flat = false;
    // sim.X.model = "snowpack": the buffer is the snowpack state; the surface stands on its
    // real depth (blur per pixel, no rim trick, R16F's slot unused).
    bool snowpack = false;
    // The look's switches (look.*): GGX specular, world-space sparkle (needs specular), and
    // the deformers' shadow map sampled with PCF. All off is the diffuse look from before them.
    bool specular = false;
    bool sparkle = false;
    bool shadows = false;
    // [ground] kind = "texture": the ground layer's albedo from the field's ground texture
    // (snow/ground_texture.hpp) instead of its colour.
    bool groundTexture = false;
    // A snowpack over a ground that takes prints ([ground] kind = "mud"): the surface stands on
    // the print in the ground (the state's A) and water held in it shows as a puddle.
    bool groundPrints = false;
    // [terrain] not flat: every vertex (the skirt's too) stands on the ground's height and the
    // landscape normal takes its slope (render/terrain_texture.hpp). Off: the flat scene.
    bool terrain = false;
    SurfaceStage stage = SurfaceStage::Forward;

    static SurfaceVariant of(const SimSettings& sim, SurfaceGeometry geometry,
                             const LookSettings& look);
    // The same variant with the look's switches of `look`.
    SurfaceVariant withLook(const LookSettings& look) const;
    // The same variant drawing `stage` (Shade has no geometry of its own: VertexGrid).
    SurfaceVariant at(SurfaceStage stage) const;
    static SurfaceVariant flatSnow() {
        SurfaceVariant variant;
        variant.flat = true;
        return variant;
    }
    auto operator<=>(const SurfaceVariant&) const = default;
};

} // namespace snowcap
