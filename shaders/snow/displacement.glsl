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
