#version 450 core
// The depth test keeps the nearest surface to the camera, i.e. the lowest point of whatever
// touches the snow; the colour attachment records what kind of deformer that point belongs to
// (contact type code, 1 + ContactType, from the instance's record), for the rgba16f format's
// B channel.
layout(location = 0) flat in float vContactCode;
layout(location = 0) out vec4 contact;

void main() {
    contact = vec4(vContactCode, 0.0, 0.0, 0.0);
}
