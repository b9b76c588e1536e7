// World (cm) <-> snow-buffer uv. Mirrors worldToUv() in src/core/snow_math.hpp.
vec2 worldToUv(vec2 worldCm) {
    return (worldCm - snow.regionCentreCm) / snow.orthoWidthCm + 0.5;
}

bool insideRegion(vec2 uv) {
    return all(greaterThanEqual(uv, vec2(0.0))) && all(lessThanEqual(uv, vec2(1.0)));
}
