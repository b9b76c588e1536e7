// The ground's shape under the snow ([terrain]): TerrainTexture (src/render/terrain_texture.hpp)
// holds the height field's samples in cm, texel (i, j) = sample (column i, row j), row 0 north.
// C++ mirror of the block: TerrainParamsBlock. Only programs built with TERRAIN include this.
layout(std140, binding = 5) uniform TerrainParams {
    vec4 mapping; // west edge (cm), north edge (cm), 1 / cell x, 1 / cell y
    vec4 grid;    // columns, rows, cell x (cm), cell y (cm)
} terrain;
layout(binding = 10) uniform sampler2D terrainField; // bilinear, clamped to the edge

// World (cm) -> continuous sample coordinates: column i's centre at i, row j's at j.
vec2 terrainSampleAt(vec2 worldCm) {
    return vec2(worldCm.x - terrain.mapping.x, terrain.mapping.y - worldCm.y) * terrain.mapping.zw -
           0.5;
}

// The height at a world point, in cm: HeightField::heightCm's rule (bilinear between the four
// nearest samples, the edge samples held beyond the extent) over exact taps, so the surface's
// vertices stand where the CPU field puts them (a sampler's bilinear weights may be 8-bit).
float terrainHeightCm(vec2 worldCm) {
    ivec2 size = ivec2(terrain.grid.xy);
    vec2 at = clamp(terrainSampleAt(worldCm), vec2(0.0), vec2(size - 1));
    ivec2 i = min(ivec2(at), max(size - 2, ivec2(0)));
    vec2 f = at - vec2(i);
    ivec2 j = min(i + 1, size - 1);
    float northWest = texelFetch(terrainField, i, 0).r;
    float northEast = texelFetch(terrainField, ivec2(j.x, i.y), 0).r;
    float southWest = texelFetch(terrainField, ivec2(i.x, j.y), 0).r;
    float southEast = texelFetch(terrainField, j, 0).r;
    float north = northWest * (1.0 - f.x) + northEast * f.x;
    float south = southWest * (1.0 - f.x) + southEast * f.x;
    return north * (1.0 - f.y) + south * f.y;
}

// The same height through the sampler's bilinear filter: one tap, for the normal's four.
float terrainHeightFilteredCm(vec2 worldCm) {
    return texture(terrainField, (terrainSampleAt(worldCm) + 0.5) / terrain.grid.xy).r;
}

// The ground's upward unit normal: central differences a cell apart (HeightField::normal).
vec3 terrainNormal(vec2 worldCm) {
    vec2 cell = terrain.grid.zw;
    float east = terrainHeightFilteredCm(worldCm + vec2(cell.x, 0.0));
    float west = terrainHeightFilteredCm(worldCm - vec2(cell.x, 0.0));
    float north = terrainHeightFilteredCm(worldCm + vec2(0.0, cell.y));
    float south = terrainHeightFilteredCm(worldCm - vec2(0.0, cell.y));
    return normalize(vec3(-(east - west) / (2.0 * cell.x), -(north - south) / (2.0 * cell.y), 1.0));
}
