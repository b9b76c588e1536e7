// M_Snow pipeline A: Snow_Mask -> 1 - x -> RemapValueRange(0..1 -> TGL..TGH) -> displacement.
// The one displacement function of every pass that draws the surface (grid, tessellation, any
// pre-pass), so all of them agree on where a print's pixels are.
float displacementValue(float snowMask) {
    return mix(snow.tgl, snow.tgh, 1.0 - snowMask);
}

// Untouched snow (value TGH) stays exactly at surfaceZ; a full print (TGL) sinks
// (TGH - TGL) x displacementCm.
float surfaceHeightCm(float snowMask) {
    return snow.surfaceZCm - (snow.tgh - displacementValue(snowMask)) * snow.displacementCm;
}

// Rims (rims = "on"; Snow Deformation's half-sine ring, rebuilt from the finished field like the
// crest of Snow that remembers): snow shoved out of a print rises around it, up to rimHeightCm,
// over rimWidthUv past the print's visible edge. Only untouched snow rises (x (1 - Snow_Mask)), so
// a rim never fills a print, however prints overlap. The distance to the nearest print comes from
// rings of taps of the buffer, from the visible edge (about one blur radius past the pressed
// texels, where the blurred mask runs out) to rimWidth beyond it.
float rimHeightCm(vec2 uv, float snowMask) {
#if !RIMS
    return 0.0;
#else
    if (snowMask >= 1.0 || !insideRegion(uv) || snow.rimWidthUv <= 0.0)
        return 0.0;
    const int kRings = 8;
    const int kTaps = 12;
    float edge = 0.9 * snow.rtBlurDistance;
    float ringStep = snow.rimWidthUv / float(kRings);
    float nearest = edge + snow.rimWidthUv; // no print within reach: no rim
    for (int ring = 0; ring <= kRings; ++ring) {
        float radius = edge + ringStep * float(ring);
        if (radius >= nearest)
            break;
        for (int tap = 0; tap < kTaps; ++tap) {
            float angle = kTau * (float(tap) + float(ring) * kRingTwist) / float(kTaps);
            float pressed = clamp(textureLod(persistentBuffer, uv + radius * vec2(cos(angle),
                                  sin(angle)), 0.0).r * snow.maskMulti, 0.0, 1.0);
            // A partly pressed tap (bilinear) puts the print's edge a fraction of a ring
            // further out, which keeps the ring smooth between the discrete radii.
            if (pressed > 0.0)
                nearest = min(nearest, radius + (1.0 - pressed) * ringStep);
        }
    }
    float t = clamp((nearest - edge) / snow.rimWidthUv, 0.0, 1.0);
    if (t >= 1.0)
        return 0.0;
    return snow.rimHeightCm * sin(3.14159265 * t) * (1.0 - snowMask) * edgeFade(uv);
#endif
}

// The surface height with everything that moves it: the print (pipeline A) and the rim.
float displacedHeightCm(vec2 uv, float snowMask) {
#if SNOWPACK
    // The real depth: the undisturbed top is surfaceZ, the ground the initial depth below it.
#if GROUND_PRINTS
    // The column stands on the bottom of the ground's print.
    return snow.surfaceZCm + snowpackDepthCm(uv) - sp.settle.w - groundPrintCm(uv);
#else
    return snow.surfaceZCm + snowpackDepthCm(uv) - sp.settle.w;
#endif
#else
    return surfaceHeightCm(snowMask) + rimHeightCm(uv, snowMask);
#endif
}
