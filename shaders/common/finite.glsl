// NaN or +-Inf, decided on the bits. GLSL lets an implementation leave NaN unsupported, so a
// compiler may fold `isnan(x)`, `isinf(x)` or `x != x` to false; it cannot fold a bit test.
// The exponent all ones is what IEEE 754 gives both, whatever the mantissa.
bool notFinite(float x) {
    return (floatBitsToUint(x) & 0x7f800000u) == 0x7f800000u;
}
