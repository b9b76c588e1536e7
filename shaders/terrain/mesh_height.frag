#version 450 core
// The height (world z, cm) of the highest triangle over this sample (the depth test chose it).

layout(location = 0) in float vWorldZ;
layout(location = 0) out float heightCm;

void main() {
    heightCm = vWorldZ;
}
