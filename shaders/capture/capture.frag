#version 450 core
// Depth only: the depth test keeps the nearest surface to the camera, i.e. the lowest point
// of whatever touches the snow.
void main() {}
