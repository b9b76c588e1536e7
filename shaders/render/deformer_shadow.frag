#version 450 core
// Depth only: the shadow map keeps nothing but the fixed-function depth.
void main() {}
