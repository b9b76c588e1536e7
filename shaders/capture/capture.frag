#version 450 core
// The depth test keeps the nearest surface to the camera, i.e. the lowest point of whatever
// touches the snow; the colour attachment records what kind of deformer that point belongs to
// (contact type code, 1 + ContactType), for the rgba16f format's B channel.
layout(location = 4) uniform float contactCode;
layout(location = 0) out vec4 contact;

void main() {
    contact = vec4(contactCode, 0.0, 0.0, 0.0);
}
