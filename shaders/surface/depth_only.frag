#version 450 core
// SnowSurfacePass's Depth stage: the surface's geometry into the low-rate depth alone; the
// material runs after it, once a pixel (surface.frag with DEFERRED).
void main() {}
