// The active tiles (docs/snowpack.md, section 3): a step works in tiles of kTileSize^2 texels
// and each pass runs only over the tiles of its list, built on the GPU and dispatched
// indirectly (one work group a tile). Needs snowpack_block.glsl first.
//
//   tileState[tile]   bits: kTileContact (the capture has a deformer over the tile this step),
//                     kTileContactBefore (it had one last step: its inside[] flags are still to
//                     be cleared), kTileReceived (ploughed snow lands here this step) and two
//                     "touched" bits that the slump iterations take in turns (`touchedIn`:
//                     texels here changed since the last iteration; `touchedOut`: what this
//                     iteration changes), passed as uniforms.
//   tileLists         per list an indirect dispatch command (x, y, z; w = the tiles listed),
//                     then `groupsPerRow`, then the lists' tiles: the compaction's (and the
//                     scatter's), the resolve's, the slump iteration's. A list's dispatch is
//                     folded into rows of at most groupsPerRow groups (the driver's
//                     GL_MAX_COMPUTE_WORK_GROUP_COUNT): a 4096^2 state has 65,536 tiles, one more
//                     than every driver must take along one axis.
// C++ side: SnowpackSim (src/snow/snowpack_sim.cpp), which writes groupsPerRow and resets each
// command to (0, 1, 1, 0) before the pass that fills it.
#include "../common/shared_constants.glsl"
const uint kTileContact = 1u;
const uint kTileContactBefore = 2u;
const uint kTileReceived = 4u;
const int kCompactList = 0;
const int kResolveList = 1;
const int kSlumpList = 2;

layout(std430, binding = 3) buffer TileState { uint tileState[]; };
layout(std430, binding = 4) buffer TileLists {
    uvec4 listCommand[3];
    uint groupsPerRow;
    uint listTiles[];
};

int tilesPerSide() {
    return (int(sp.capture.w) + kTileSize - 1) / kTileSize;
}
int tileCount() {
    return tilesPerSide() * tilesPerSide();
}
uint tileOfTexel(ivec2 p) {
    return uint((p.y / kTileSize) * tilesPerSide() + p.x / kTileSize);
}
// The texel of this invocation in a pass dispatched over `list` (kTileSize^2 invocations a
// group, one group a listed tile, row after row); past the list's end (the last row's rest),
// a texel outside the region.
ivec2 listedTexel(int list) {
    uint listed = gl_WorkGroupID.y * groupsPerRow + gl_WorkGroupID.x;
    if (listed >= listCommand[list].w)
        return ivec2(-1);
    uint tile = listTiles[list * tileCount() + int(listed)];
    ivec2 origin = ivec2(int(tile) % tilesPerSide(), int(tile) / tilesPerSide()) * kTileSize;
    return origin + ivec2(gl_LocalInvocationID.xy);
}
// Lists `tile`; the dispatch grows to hold it: as wide as the list (at most a row), as many
// rows as it fills.
void appendTile(int list, uint tile) {
    uint slot = atomicAdd(listCommand[list].w, 1u);
    listTiles[list * tileCount() + int(slot)] = tile;
    atomicMax(listCommand[list].x, min(slot + 1u, groupsPerRow));
    atomicMax(listCommand[list].y, slot / groupsPerRow + 1u);
}
