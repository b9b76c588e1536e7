#pragma once
// Things that press into the snow: a mesh and how it moves over time. No GL.

#include "core/settings.hpp"
#include "scene/mesh.hpp"

#include <glm/mat4x4.hpp>
#include <string>
#include <vector>

namespace snowcap {

struct Deformer {
    std::string name;
    Mesh mesh;
    std::vector<DeformerSettings::Key> path; // linear between keys, held outside

    glm::vec3 positionAt(double timeS) const;
    glm::mat4 modelAt(double timeS) const;
};

// Builds the procedural deformer a scenario describes.
Deformer makeDeformer(const DeformerSettings& settings);

} // namespace snowcap
