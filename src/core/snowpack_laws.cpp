#include "core/snowpack_laws.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace snowcap {

namespace {
bool notFiniteFloat(float x) {
    return !std::isfinite(x);
}
constexpr float kPi = 3.14159265358979f;
} // namespace

SnowpackConstants snowpackConstants(const SnowpackSettings& snowpack, double captureZCm,
                                    double captureFarCm, double texelCm) {
    SnowpackConstants c;
    c.initialDepthCm = static_cast<float>(snowpack.depthCm);
    c.initialDensity = static_cast<float>(snowpack.densityKgM3);
    c.maxDensity = static_cast<float>(std::max(snowpack.maxDensityKgM3, snowpack.densityKgM3));
    c.reposeFreshDeg = static_cast<float>(snowpack.reposeFreshDeg);
    c.reposeDenseDeg = static_cast<float>(snowpack.reposeDenseDeg);
    c.texelCm = static_cast<float>(texelCm);
    c.ploughReachTexels =
        std::clamp(static_cast<int>(std::ceil(snowpack.ploughReachCm / texelCm)), 1, 64);
    c.captureFarCm = static_cast<float>(captureFarCm);
    c.cameraAboveGroundCm = static_cast<float>(captureZCm + snowpack.depthCm);
    return c;
}

float contactHeightCm(float windowDepth, const SnowpackConstants& c) {
    if (notFiniteFloat(windowDepth) || windowDepth >= 1.0f)
        return 3.0e38f; // far: nothing there
    return c.cameraAboveGroundCm + windowDepth * c.captureFarCm;
}

float pressedGroundPrintCm(float printCm, float contactCm, float maxCm) {
    if (!(contactCm < 0.0f) || !(maxCm > 0.0f))
        return printCm;
    return std::max(printCm, std::min(-contactCm, maxCm));
}

Compaction compactColumn(const SnowColumn& column, float contactCm, const SnowpackConstants& c) {
    Compaction out;
    out.column = column;
    if (c.groundPrintMaxCm > 0.0f) {
        // Heights from here on are above the column's base, the print's bottom.
        out.column.groundPrintCm =
            pressedGroundPrintCm(column.groundPrintCm, contactCm, c.groundPrintMaxCm);
        contactCm = contactCm + out.column.groundPrintCm;
    }
    // A contact resting on the top counts as inside (nothing slumps in under it); only one
    // below the top compacts.
    out.inside = contactCm < column.depthCm + kContactSlackCm;
    if (!(contactCm < column.depthCm))
        return out;
    const float mass = column.massKgM2;
    const float depth = std::max(contactCm, 0.0f);
    const float capacity = depth * 0.01f * c.maxDensity;
    if (mass <= capacity) {
        if (depth > 0.0f)
            out.column.depthCm = depth; // the same mass in less depth: denser
        return out;
    }
    // Quantise what goes; keep exactly the rest, at maxDensity (a residue below one quantum
    // where the contact reaches the ground stays as a sliver of depth).
    const float excess = mass - capacity;
    const float quanta = std::floor(excess * kPloughQuanta);
    const float kept = mass - quanta * kPloughQuantum;
    out.ploughQuanta = static_cast<std::uint32_t>(quanta);
    out.column.massKgM2 = kept;
    out.column.depthCm = kept / (0.01f * c.maxDensity);
    return out;
}

SnowColumn withMass(const SnowColumn& column, float depthCm, float massKgM2,
                    const SnowpackConstants& c) {
    SnowColumn out = column;
    out.depthCm = std::max(depthCm, 0.0f);
    out.massKgM2 = massKgM2;
    if (depthCm > 0.0f && massKgM2 / (0.01f * depthCm) > c.maxDensity)
        out.depthCm = massKgM2 / (0.01f * c.maxDensity);
    return out;
}

SnowColumn depositOnto(const SnowColumn& column, float massKgM2, const SnowpackConstants& c) {
    if (!(massKgM2 > 0.0f))
        return column;
    const bool bare = column.depthCm < kBareDepthCm;
    const float density = bare ? c.initialDensity : densityOf(column);
    return withMass(column, column.depthCm + massKgM2 / (0.01f * density),
                    column.massKgM2 + massKgM2, c);
}

float reposeTan(float density, const SnowpackConstants& c) {
    const float span = std::max(c.maxDensity - kReposeFreshDensity, 1.0f);
    const float t = std::clamp((density - kReposeFreshDensity) / span, 0.0f, 1.0f);
    const float degrees = c.reposeFreshDeg + (c.reposeDenseDeg - c.reposeFreshDeg) * t;
    return std::tan(degrees * (kPi / 180.0f));
}

float finalDensityForPressure(float kPa) {
    if (kPa > 700.0f)
        return 650.0f;
    if (kPa > 350.0f)
        return 600.0f;
    return kPa > 210.0f ? 550.0f : 500.0f;
}

float reposeStepCm(float density, const SnowpackConstants& c) {
    return reposeTan(density, c) * c.texelCm;
}

float slumpFlowCm(float topHigh, float reposeStepHigh, float topLow, float depthHigh) {
    const float step = topHigh - topLow;
    const float excess = step - reposeStepHigh;
    return excess > 0.0f ? std::min(excess * kSlumpFraction, depthHigh * kSlumpFraction) : 0.0f;
}

float snowHoldingDepthCm(float slopeDeg) {
    if (!(slopeDeg > 0.0f))
        return std::numeric_limits<float>::infinity();
    return 100.0f * 3178.4f * std::pow(slopeDeg, -1.998f);
}

float coverDepthCm(float depthOnFlatCm, float slopeTan, float reposeTan) {
    if (slopeTan > reposeTan)
        return 0.0f;
    const float slopeDeg = std::atan(slopeTan) * (180.0f / kPi);
    return std::min(depthOnFlatCm, snowHoldingDepthCm(slopeDeg));
}

float settlingRatePerS(float density, float mass, float temperatureC) {
    const float coldK = -temperatureC; // T0 - T
    const float metamorphism =
        2.8e-6f * std::exp(-0.042f * coldK) * std::exp(-0.046f * std::max(density - 150.0f, 0.0f));
    const float pressurePa = 9.81f * 0.5f * mass;
    const float viscosity = 6.051e7f * std::exp(0.081f * coldK) * std::exp(0.018f * density);
    return metamorphism + pressurePa / viscosity;
}

SnowColumn settleColumn(const SnowColumn& column, float dtS, float temperatureC,
                        const SnowpackConstants& c) {
    const float before = densityOf(column);
    if (column.depthCm < kBareDepthCm || before >= c.maxDensity || !(dtS > 0.0f))
        return column;
    const float x = settlingRatePerS(before, column.massKgM2, temperatureC) * dtS;
    const float grown = before + before * (x + 0.5f * x * x);
    const float density = std::min(grown, c.maxDensity);
    SnowColumn out = column;
    out.depthCm = column.massKgM2 / (0.01f * density);
    return out;
}

SnowpackStep SnowpackClock::advance(double dtS) {
    const double before = timeS_;
    timeS_ += std::max(dtS, 0.0);
    SnowpackStep step;
    // A millionth of a tick of slack: time summed from 1/30 s steps lands a hair below the
    // tick it reaches (300 of them make 9.999999999999982 s), which must still count.
    const auto tickOf = [](double t, double perS) {
        return std::floor(t * perS + 1e-6);
    };
    const auto ticks = [&](double perS) {
        return static_cast<int>(tickOf(timeS_, perS) - tickOf(before, perS));
    };
    step.slumpIterations = ticks(settings_.slumpRateHz);
    step.settleTicks = ticks(1.0 / settings_.settleIntervalS);
    return step;
}

} // namespace snowcap
