#version 450 core
// Which tiles the capture reaches (the first snowpack pass of a step; one group a tile, over
// the whole region): a tile where any texel has a deformer above it, or had one last step (its
// inside[] flags are still set), goes on the compaction's list; on a settling tick (or with
// `everyTile`) every tile does. Reads only the capture: one fetch a texel.
// Reads:  capture depth (window depth, 1 = nothing), tileState[]
// Writes: tileState[] (the contact bits), the compaction's list
layout(local_size_x = 16, local_size_y = 16) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"
#include "snowpack_tiles.glsl"

layout(binding = 0) uniform sampler2D captureDepth;
layout(location = 2) uniform uint everyTile;

shared uint contactInTile;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (gl_LocalInvocationIndex == 0u)
        contactInTile = 0u;
    barrier();
    // Only a texel with a contact below the far plane can be inside the snow (compact.comp).
    if (inRegion(p) && contactHeightCm(texelFetch(captureDepth, p, 0).r) < 1.0e38)
        atomicOr(contactInTile, 1u);
    barrier();
    if (gl_LocalInvocationIndex != 0u)
        return;
    uint tile = tileOfTexel(p);
    uint state = tileState[tile];
    uint now = contactInTile != 0u ? kTileContact : 0u;
    uint before = (state & kTileContact) != 0u ? kTileContactBefore : 0u;
    tileState[tile] = (state & ~(kTileContact | kTileContactBefore)) | now | before;
    if (now != 0u || before != 0u || everyTile != 0u)
        appendTile(kCompactList, tile);
}
