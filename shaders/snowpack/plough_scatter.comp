#version 450 core
// Plough scatter, over the compaction's tiles: each texel's quanta go to the nearest texel
// outside the contact within the reach (integer atomics: the sums do not depend on the order),
// or stay where nothing is; the tile they land on is marked for the resolve.
// Reads:  quanta[], inside[]      Writes: received[] (atomically), kTileReceived
// Mirrors nearestOutside and SnowpackReference::plough (src/snow/snowpack_reference.cpp).
// inside[] is 0 on every tile off the compaction's list (it was cleared the step its contact
// left), so the ring search may read any tile.
layout(local_size_x = 16, local_size_y = 16) in;
#include "snowpack_block.glsl"
#include "snowpack_tiles.glsl"

int nearestOutside(ivec2 p, int reach) {
    int best = -1;
    int bestD2 = 0x7fffffff;
    for (int r = 1; r <= reach; ++r) {
        for (int dy = -r; dy <= r; ++dy) {
            bool edgeRow = dy == -r || dy == r;
            for (int dx = -r; dx <= r; dx += edgeRow ? 1 : 2 * r) {
                ivec2 q = p + ivec2(dx, dy);
                if (!inRegion(q))
                    continue;
                int t = texelIndex(q);
                int d2 = dx * dx + dy * dy;
                if (inside[t] == 0u && d2 < bestD2) {
                    bestD2 = d2;
                    best = t;
                }
            }
        }
        if (best >= 0 && bestD2 <= (r + 1) * (r + 1))
            break;
    }
    return best;
}

void main() {
    ivec2 p = listedTexel(kCompactList);
    if (!inRegion(p))
        return;
    int t = texelIndex(p);
    uint q = quanta[t];
    if (q == 0u)
        return;
    int to = nearestOutside(p, int(sp.settle.z));
    int target = to >= 0 ? to : t;
    atomicAdd(received[target], q);
    int size = int(sp.capture.w);
    atomicOr(tileState[tileOfTexel(ivec2(target % size, target / size))], kTileReceived);
}
