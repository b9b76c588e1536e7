// The snowpack passes' uniforms. C++ mirror: SnowpackBlock in src/snow/snowpack_sim.cpp.
// Binding 3: beside SnowParams (0), ViewParams / Accumulate (1) and ShadowParams (2), so the
// surface can read it too.
layout(std140, binding = 3) uniform Snowpack {
    vec4 capture; // far cm, camera height above the ground cm, texel cm, size (texels)
    vec4 density; // initial, max (kg/m3), repose fresh, repose dense (deg)
    vec4 settle;  // dt s of this step's settling (0: none), temperature C, plough reach,
                  // initial depth cm
    vec4 ground;  // x: the deepest print the ground takes, cm (0: none); y: 1 while the
                  // ground is frozen (a contact does not press it), else 0; zw: 0
} sp;

#ifndef SNOWPACK_SURFACE

// The state (depth cm, mass kg/m2, water kg/m2, ground print cm) and what the passes hand on:
// per texel the quanta to plough, whether a contact is inside the snow there, the quanta
// received.
layout(std430, binding = 0) buffer PloughQuanta { uint quanta[]; };
layout(std430, binding = 1) buffer Inside { uint inside[]; };
layout(std430, binding = 2) buffer Received { uint received[]; };

int texelIndex(ivec2 p) {
    return p.y * int(sp.capture.w) + p.x;
}
bool inRegion(ivec2 p) {
    int size = int(sp.capture.w);
    return p.x >= 0 && p.y >= 0 && p.x < size && p.y < size;
}
#endif
