#pragma once
// What make_assets writes (tools/make_assets.cpp): an asset in snowcap's world, the basis of a
// file format, and the asset as an Assimp scene in that format's units and axes.

#include "scene/mesh.hpp"
#include "scene/model_import.hpp"

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

struct aiScene;

namespace snowcap::assets {

struct Asset {
    std::string name;
    Mesh mesh; // cm, Z up, facing +X, lowest point on z = 0
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton;
    std::vector<AnimationClip> clips;
};

// World (cm, Z up) -> file: a uniform scale and a rotation, so node transforms convert by
// conjugation (C * L * C^-1) and vertices, bind matrices and keys follow.
struct FileBasis {
    const char* exporter;
    const char* extension;
    float scale; // file units per cm
    glm::mat4 matrix() const { return glm::scale(glm::mat4(1.0f), glm::vec3(scale)) * zUpToYUp(); }
    // -90 degrees about X, exactly: +Z becomes +Y, +Y becomes -Z, +X stays.
    static glm::mat4 zUpToYUp() {
        return glm::mat4(1, 0, 0, 0, /**/ 0, 0, -1, 0, /**/ 0, 1, 0, 0, /**/ 0, 0, 0, 1);
    }
};

// The asset as an Assimp scene in the file's units and axes; the caller deletes it.
aiScene* buildScene(const Asset& asset, const FileBasis& basis);

} // namespace snowcap::assets
