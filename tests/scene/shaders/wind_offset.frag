#version 450 core
in vec3 offset;
layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(offset, 1.0);
}
