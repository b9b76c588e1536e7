#version 450 core
// A slump iteration's list (one invocation a tile): the tiles touched since the last iteration
// and their four neighbours (slump reaches one texel, so a texel that did not change, and whose
// four neighbours did not, computes what it computed last time: nothing new). Clears this
// iteration's `touchedOut` bit for the tile; the neighbours read only `touchedIn`.
// Reads/writes: tileState[]      Writes: the slump's list
layout(local_size_x = 64) in;
#include "snowpack_block.glsl"
#include "snowpack_tiles.glsl"

layout(location = 0) uniform uint touchedIn;
layout(location = 1) uniform uint touchedOut;
layout(location = 2) uniform uint everyTile;

void main() {
    int tile = int(gl_GlobalInvocationID.x);
    if (tile >= tileCount())
        return;
    int side = tilesPerSide();
    ivec2 at = ivec2(tile % side, tile / side);
    bool run = everyTile != 0u;
    const ivec2 around[5] = ivec2[5](ivec2(0), ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
    for (int i = 0; i < 5; ++i) {
        ivec2 n = at + around[i];
        if (n.x >= 0 && n.y >= 0 && n.x < side && n.y < side &&
            (tileState[n.y * side + n.x] & touchedIn) != 0u)
            run = true;
    }
    atomicAnd(tileState[tile], ~touchedOut);
    if (run)
        appendTile(kSlumpList, uint(tile));
}
