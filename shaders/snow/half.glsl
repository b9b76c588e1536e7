// Exact round-to-nearest-even onto the half-float grid, for values in [0, 1]. The result is
// representable as a half, so the R16F store cannot round it again: the driver's conversion
// (truncating on llvmpipe, nearest on most GPUs) no longer decides what is stored.
// Mirrors roundToHalf(v, NearestEven) in src/core/snow_math.cpp; every step is exact in fp32.
float roundToHalfNearestEven(float v) {
    if (v <= 0.0)
        return 0.0;
    int exponent = int(bitfieldExtract(floatBitsToUint(v), 23, 8)) - 127; // v in [2^e, 2^(e+1))
    int ulpExponent = max(exponent - 10, -24);
    float ulp = uintBitsToFloat(uint(ulpExponent + 127) << 23);
    float invUlp = uintBitsToFloat(uint(127 - ulpExponent) << 23);
    return roundEven(v * invUlp) * ulp;
}
