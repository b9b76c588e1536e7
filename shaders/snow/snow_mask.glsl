// MF_FoliageInteraction_Snow: world position -> buffer uv -> SpiralBlur(RT_Persistant) ->
// Snow_Mask. Needs snow_params.glsl and region.glsl first. The persistent buffer is bound with
// a bilinear sampler whose border is 0, so taps past the region read untouched snow: no
// wrap-around and no clamped smear. (UE's CustomRotator step is not needed: the capture matrix
// is built without a mirror, so the buffer is already in world orientation.)
layout(binding = 2) uniform sampler2D persistentBuffer;

// The material's switches are compiled in (SurfaceVariant, render/snow_surface_pass.hpp), not
// branched on: a CPU rasteriser runs both sides of every branch, so a rim or a Sobel filter
// that is switched off at run time would still cost every pixel its taps.
#ifndef BLUR_PREPASS
#define BLUR_PREPASS 0
#endif
#ifndef FORMAT_RGBA
#define FORMAT_RGBA 0
#endif
#ifndef RIMS
#define RIMS 0
#endif
#ifndef NORMALS_SOBEL
#define NORMALS_SOBEL 0
#endif
#ifndef NO_SNOW
#define NO_SNOW 0
#endif
#ifndef BLUR_SLOPE
#define BLUR_SLOPE 0
#endif
#ifndef SNOWPACK
#define SNOWPACK 0
#endif
#ifndef GROUND_PRINTS
#define GROUND_PRINTS 0
#endif
#if NO_SNOW
#undef RIMS
#define RIMS 0
#undef SNOWPACK
#define SNOWPACK 0
#endif
#if !SNOWPACK
#undef GROUND_PRINTS
#define GROUND_PRINTS 0
#endif
#if SNOWPACK
// sim.X.model = "snowpack": the bound buffer is the snowpack state (R depth cm, G mass kg/m2,
// B water, A the ground's print), or with a blur prepass (blur = "prepass" / "separable") its blurred copy,
// whose R is the blurred depth; the state itself is bound beside it (binding 7) for the
// material's mass and water. The Snowpack block (binding 3) gives the initial column. Its rims
// are real: the rim trick is off.
layout(binding = 7) uniform sampler2D snowpackState;
#define SNOWPACK_SURFACE 1
#include "../snowpack/snowpack_block.glsl"
#undef RIMS
#define RIMS 0
#endif

// Each ring is turned by the golden ratio of a tap spacing, so the taps of successive rings
// trace a spiral instead of lining up in spokes.
const float kRingTwist = 0.61803398875;
const float kTau = 6.28318530718;

// Mean of the centre tap and distanceSteps rings x radialSteps taps out to rtBlurDistance.
float spiralBlurTaps(vec2 uv) {
    int rings = int(snow.distanceSteps);
    int taps = int(snow.radialSteps);
    float sum = textureLod(persistentBuffer, uv, 0.0).r;
    for (int ring = 1; ring <= rings; ++ring) {
        float radius = snow.rtBlurDistance * float(ring) / float(rings);
        for (int tap = 0; tap < taps; ++tap) {
            float angle = kTau * (float(tap) + float(ring) * kRingTwist) / float(taps);
            sum += textureLod(persistentBuffer, uv + radius * vec2(cos(angle), sin(angle)), 0.0).r;
        }
    }
    return sum / float(1 + rings * taps);
}

// The blurred persistent value at uv. With BLUR_PREPASS the bound buffer is already blurred
// (shaders/snow/blur_prepass.frag ran the same taps once per step at texel centres) and one
// bilinear tap reads it.
float spiralBlur(vec2 uv) {
#if BLUR_PREPASS
    return textureLod(persistentBuffer, uv, 0.0).r;
#else
    return spiralBlurTaps(uv);
#endif
}

#if BLUR_SLOPE
// blur = "separable" on an r16f buffer: the blurred value and its slope per buffer texel
// (R, G = d/dx, B = d/dy; shaders/snow/blur_separable.frag) in one tap; 0 outside the region.
vec3 blurWithSlope(vec2 uv) {
    return insideRegion(uv) ? textureLod(persistentBuffer, uv, 0.0).rgb : vec3(0.0);
}
#endif

// Snow Edge Control: 1 inside, falling to 0 over edgeControl (uv) at the region's border, so a
// print that leaves the region fades instead of ending in a cut.
float edgeFade(vec2 uv) {
    float nearest = min(min(uv.x, 1.0 - uv.x), min(uv.y, 1.0 - uv.y));
    if (snow.edgeControl <= 0.0)
        return nearest >= 0.0 ? 1.0 : 0.0;
    return clamp(nearest / snow.edgeControl, 0.0, 1.0);
}

// format = "rgba16f": the texel's contact type (B) and age (G) shape the print. `x` is the
// blurred value x Mask_Multi, before saturation. Vehicles (B = 2) ramp twice as steeply about
// the same midpoint and reach full depth at 3/4 of the intensity (sharper walls, deeper ruts);
// animals (B = 3) start at three times the intensity, which pulls the print's edge inward
// (smaller prints); feet and others are the original. Prints
// settle up to 35 % shallower as they age to ageSoftenS, which also flattens their walls.
float contactShapedMask(vec2 uv, float x) {
#if !FORMAT_RGBA
    return clamp(x, 0.0, 1.0);
#else
    // The bound texture's own size: a separable blur's copy has half the buffer's side.
    ivec2 size = textureSize(persistentBuffer, 0);
    ivec2 texel = clamp(ivec2(uv * vec2(size)), ivec2(0), size - 1);
    vec2 ageType = texelFetch(persistentBuffer, texel, 0).gb;
    float type = round(ageType.y);
    float shaped = type == 2.0 ? (x - 0.25) * 2.0 : (type == 3.0 ? (x - 3.0) * 0.5 : x);
    float settle = 1.0 - 0.35 * smoothstep(0.0, max(snow.ageSoftenS, 1e-3), ageType.x);
    return clamp(shaped, 0.0, 1.0) * settle;
#endif
}

#if SNOWPACK
// The snow's depth (cm) at uv, spiral-blurred as the mask is; towards the region's border it
// fades to the initial depth (Snow Edge Control), which is also what lies outside.
float snowpackDepthCm(vec2 uv) {
    float initial = sp.settle.w;
    if (!insideRegion(uv))
        return initial;
    return mix(initial, spiralBlur(uv), edgeFade(uv));
}
// The state at uv, bilinear (mass and water for the material).
vec4 snowpackStateAt(vec2 uv) {
    return textureLod(snowpackState, uv, 0.0);
}
#if GROUND_PRINTS
// [ground] kind = "mud": the print in the ground under the column at uv (the state's A, cm
// below ground level), bilinear and not blurred (the mud keeps its edges), fading towards the
// region's border as the depth does; 0 outside.
float groundPrintCm(vec2 uv) {
    if (!insideRegion(uv))
        return 0.0;
    return snowpackStateAt(uv).a * edgeFade(uv);
}
#endif
#endif

// Snow_Mask: blurred persistent value x Mask_Multi, saturated; 0 outside the region. For a
// snowpack, how much of the initial depth is gone (0 untouched, 1 down to the ground).
float snowMaskAtUv(vec2 uv) {
#if NO_SNOW
    return 0.0;
#endif
#if SNOWPACK
    float initial = max(sp.settle.w, 1e-3);
    return clamp((initial - snowpackDepthCm(uv)) / initial, 0.0, 1.0);
#endif
    if (!insideRegion(uv))
        return 0.0;
    return contactShapedMask(uv, spiralBlur(uv) * snow.maskMulti) * edgeFade(uv);
}

float snowMaskAtWorld(vec2 worldCm) {
    return snowMaskAtUv(worldToUv(worldCm));
}
