#version 450 core
// The resolve's list (one invocation a tile): the tiles ploughed snow lands on this step
// (plough_scatter.comp marked them), each marked touched for the slump, its mark cleared.
// Reads/writes: tileState[]      Writes: the resolve's list
layout(local_size_x = 64) in;
#include "snowpack_block.glsl"
#include "snowpack_tiles.glsl"

layout(location = 0) uniform uint touchedIn;
layout(location = 2) uniform uint everyTile;

void main() {
    uint tile = gl_GlobalInvocationID.x;
    if (tile >= uint(tileCount()))
        return;
    uint state = tileState[tile];
    if ((state & kTileReceived) == 0u && everyTile == 0u)
        return;
    tileState[tile] = (state & ~kTileReceived) | touchedIn;
    appendTile(kResolveList, tile);
}
