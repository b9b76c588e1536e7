// The laws of src/core/snowpack_laws.cpp, operation for operation (`precise`: no fused
// multiply-adds, as the CPU side is built with -ffp-contract=off).
#include "../common/finite.glsl"
#include "../common/shared_constants.glsl"
const float kPi = 3.14159265358979;

float columnMass(float depthCm, float density) {
    precise float m = depthCm * 0.01 * density;
    return m;
}

float contactHeightCm(float windowDepth) {
    if (notFinite(windowDepth) || windowDepth >= 1.0)
        return 3.0e38;
    precise float h = sp.capture.y + windowDepth * sp.capture.x;
    return h;
}

float settlingRatePerS(float density, float mass, float temperatureC) {
    precise float coldK = -temperatureC;
    precise float metamorphism =
        2.8e-6 * exp(-0.042 * coldK) * exp(-0.046 * max(density - 150.0, 0.0));
    precise float pressurePa = 9.81 * 0.5 * mass;
    precise float viscosity = 6.051e7 * exp(0.081 * coldK) * exp(0.018 * density);
    precise float rate = metamorphism + pressurePa / viscosity;
    return rate;
}

// The state is (depth cm, mass kg/m2, water kg/m2, ground print cm): density = mass / depth.
float densityOf(vec4 c) {
    precise float d = c.y / (0.01 * c.x);
    return c.x >= kBareDepthCm ? d : 0.0;
}

float pressedGroundPrintCm(float printCm, float contactCm, float maxCm) {
    if (!(contactCm < 0.0) || !(maxCm > 0.0))
        return printCm;
    return max(printCm, min(-contactCm, maxCm));
}

// frozenGroundContactCm of src/core/ground.hpp: over frozen ground a contact stops on the
// ground's surface, the print's bottom.
float frozenGroundContactCm(float contactCm, float printCm) {
    return contactCm > -printCm ? contactCm : -printCm;
}

vec4 settleColumn(vec4 c, float dtS, float temperatureC) {
    float maxDensity = sp.density.y;
    float before = densityOf(c);
    if (c.x < kBareDepthCm || before >= maxDensity || !(dtS > 0.0))
        return c;
    precise float x = settlingRatePerS(before, c.y, temperatureC) * dtS;
    precise float grown = before + before * (x + 0.5 * x * x);
    float density = min(grown, maxDensity);
    precise float depth = c.y / (0.01 * density);
    return vec4(depth, c.y, c.z, c.w);
}

float reposeTan(float density) {
    precise float span = max(sp.density.y - kReposeFreshDensity, 1.0);
    precise float t = clamp((density - kReposeFreshDensity) / span, 0.0, 1.0);
    precise float degrees = sp.density.z + (sp.density.w - sp.density.z) * t;
    return tan(degrees * (kPi / 180.0));
}

float reposeStepCm(float density) {
    precise float holds = reposeTan(density) * sp.capture.z;
    return holds;
}

// The column's surface above the undisturbed ground: its depth on the bottom of the ground's
// print (c.w). Mirrors surfaceTopCm (core/snowpack_laws.hpp).
float surfaceTopCm(vec4 c) {
    precise float top = c.x - c.w;
    return top;
}

// Mirrors slumpFlowCm (core/snowpack_laws.cpp): of the surfaces' step, at most a fifth of the
// higher column's snow.
float slumpFlowCm(float topHigh, float reposeStepHigh, float topLow, float depthHigh) {
    precise float step = topHigh - topLow;
    precise float excess = step - reposeStepHigh;
    precise float flow = excess * kSlumpFraction;
    precise float most = depthHigh * kSlumpFraction;
    return excess > 0.0 ? min(flow, most) : 0.0;
}

vec4 withMass(vec4 c, float depthCm, float massKgM2) {
    vec4 outColumn = vec4(max(depthCm, 0.0), massKgM2, c.z, c.w);
    precise float density = massKgM2 / (0.01 * depthCm);
    if (depthCm > 0.0 && density > sp.density.y) {
        precise float depth = massKgM2 / (0.01 * sp.density.y);
        outColumn.x = depth;
    }
    return outColumn;
}

vec4 depositOnto(vec4 c, float massKgM2) {
    if (!(massKgM2 > 0.0))
        return c;
    bool bare = c.x < kBareDepthCm;
    float density = bare ? sp.density.x : densityOf(c);
    precise float depth = c.x + massKgM2 / (0.01 * density);
    precise float mass = c.y + massKgM2;
    return withMass(c, depth, mass);
}
