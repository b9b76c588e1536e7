// The laws of src/core/weather_laws.cpp, operation for operation (`precise`: no fused
// multiply-adds, as the CPU side is built with -ffp-contract=off). Needs snowpack_laws.glsl.
const float kWeatherQuantum = 1.0 / 65536.0;
const float kWeatherQuanta = 65536.0;
const float kMaxQuantaPerTick = 1048576.0;
const int kDriftCurvatureTexels = 4;
const float kDriftDryWaterShare = 0.005;
const float kDriftMaxShare = 0.25;

vec4 snowfallOnto(vec4 c, uint quanta, float density) {
    if (quanta == 0u)
        return c;
    precise float mass = float(quanta) * kWeatherQuantum;
    precise float depth = c.x + mass / (0.01 * density);
    precise float total = c.y + mass;
    return vec4(depth, total, c.z, c.w);
}

vec3 surfaceNormal(float left, float right, float down, float up, float texelCm) {
    precise float dx = (right - left) / (2.0 * texelCm);
    precise float dy = (up - down) / (2.0 * texelCm);
    precise float length = sqrt(dx * dx + dy * dy + 1.0);
    precise vec3 n = vec3(-dx / length, -dy / length, 1.0 / length);
    return n;
}

uint sunMeltQuanta(vec3 normal) {
    if (!(wx.fall.y > 0.0))
        return 0u;
    precise float facing = normal.x * wx.sun.x + normal.y * wx.sun.y + normal.z * wx.sun.z;
    precise float quanta = floor(wx.fall.y * max(facing, 0.0) * kWeatherQuanta + 0.5);
    return uint(min(quanta, kMaxQuantaPerTick));
}

vec4 meltColumn(vec4 c, uint quanta) {
    if (quanta == 0u || !(c.y > 0.0))
        return c;
    precise float melt = float(quanta) * kWeatherQuantum;
    if (melt >= c.y) {
        precise float water = c.z + c.y;
        return vec4(0.0, 0.0, water, c.w);
    }
    precise float depth = c.x - c.x * (melt / c.y);
    precise float mass = c.y - melt;
    precise float water = c.z + melt;
    return vec4(depth, mass, water, c.w);
}

// What a print in the ground holds (kg/m2): 10 a cm, in whole quanta.
float printHoldsKgM2(float printCm) {
    precise float quanta = floor(printCm * (10.0 * kWeatherQuanta));
    precise float held = quanta * kWeatherQuantum;
    return held;
}

// Of the water the ground's print does not hold (`held`: 0 on flat ground).
float drainedWater(float water, float drainFraction, float held) {
    precise float free = water - held;
    if (!(free > 0.0) || !(drainFraction > 0.0))
        return 0.0;
    if (free < kWeatherQuantum)
        return free;
    precise float quanta = max(floor(free * drainFraction * kWeatherQuanta), 1.0);
    precise float drained = quanta * kWeatherQuantum;
    return min(drained, free);
}

float frictionVelocity(float windAt10mMS) {
    precise float u = 0.4 * windAt10mMS / 11.512925;
    return u;
}

float thresholdFrictionVelocity(float density) {
    precise float light = 0.10 * exp(0.003 * density);
    precise float dense = 0.005 * exp(0.013 * density);
    return density < 300.0 ? light : dense;
}

float saltationFlux(float uStar, float uStarT) {
    if (!(uStar > uStarT))
        return 0.0;
    precise float c = 0.68 * 1.29 / 9.81;
    precise float q = c * uStarT * (uStar * uStar - uStarT * uStarT) / uStar;
    return q;
}

// Sand's: the Bagnold formula with d = D and C = 1 (core/weather_laws.hpp).
float bagnoldFlux(float uStar, float uStarT) {
    if (!(uStar > uStarT))
        return 0.0;
    precise float c = 1.29 / 9.81;
    precise float q = c * uStar * uStar * uStar;
    return q;
}

// wx.sun.w: the substance's own threshold (Bagnold's flux), 0: snow's (Pomeroy and Gray's).
// A drift pass is built for one or the other (OWN_THRESHOLD: wx.sun.w > 0; WeatherSim::step
// picks the program), as llvmpipe would run both laws for every texel.
float substanceFlux(float uStar, float density) {
#ifdef OWN_THRESHOLD
    return bagnoldFlux(uStar, wx.sun.w);
#else
    return saltationFlux(uStar, thresholdFrictionVelocity(density));
#endif
}

// a: west, east, south, north, south-west, north-east, north-west, south-east.
float microMetCurvature(float z, float a[8], float etaCm) {
    precise float straight = 2.0 * etaCm;
    precise float diagonal = 2.0 * 1.41421356 * etaCm;
    precise float sum = (z - 0.5 * (a[0] + a[1])) / straight + (z - 0.5 * (a[2] + a[3])) / straight +
                        (z - 0.5 * (a[4] + a[5])) / diagonal + (z - 0.5 * (a[6] + a[7])) / diagonal;
    precise float curvature = 0.25 * sum;
    return curvature;
}

float terrainWindFactor(float slopeAlong, float curvature) {
    precise float omegaS = clamp(0.5 * slopeAlong, -0.5, 0.5);
    precise float omegaC = clamp(2.0 * curvature, -0.5, 0.5);
    precise float w = 1.0 + 0.5 * omegaS + 0.5 * omegaC;
    return w;
}

float gustedWind(vec2 xyCm) {
    precise float along = xyCm.x * wx.wind.x + xyCm.y * wx.wind.y;
    precise float gust = sin(wx.wind.w - wx.gust.y * along);
    precise float wind = wx.wind.z * max(1.0 + wx.gust.x * gust, 0.0);
    return wind;
}

uvec2 driftOut(vec4 c, bool underContact, float windMS, float slopeAlong, float curvature,
               float texelCm) {
    if (underContact || !(c.y > 0.0) || c.x < kBareDepthCm || c.z > kDriftDryWaterShare * c.y)
        return uvec2(0u);
    precise float uStar = frictionVelocity(windMS * terrainWindFactor(slopeAlong, curvature));
    precise float flux = substanceFlux(uStar, densityOf(c));
    if (!(flux > 0.0))
        return uvec2(0u);
    precise float perTexel = flux * wx.fall.w / (0.01 * texelCm);
    precise float x = floor(perTexel * abs(wx.wind.x) * kWeatherQuanta);
    precise float y = floor(perTexel * abs(wx.wind.y) * kWeatherQuanta);
    precise float cap = floor(c.y * kDriftMaxShare * kWeatherQuanta);
    if (x + y > cap) {
        precise float share = cap / (x + y);
        x = floor(x * share);
        y = floor(y * share);
    }
    return uvec2(uint(x), uint(y));
}

vec4 driftColumn(vec4 c, uint outQuanta, uint inQuanta) {
    vec4 result = c;
    if (outQuanta > 0u) {
        precise float gone = float(outQuanta) * kWeatherQuantum;
        precise float depth = c.x - c.x * (gone / c.y);
        precise float mass = c.y - gone;
        result = mass > 0.0 ? vec4(depth, mass, c.z, c.w) : vec4(0.0, 0.0, c.z, c.w);
    }
    if (inQuanta > 0u) {
        precise float arriving = float(inQuanta) * kWeatherQuantum;
        precise float depth = result.x + arriving / (0.01 * sp.density.x);
        precise float mass = result.y + arriving;
        result = withMass(result, depth, mass);
    }
    return result;
}
