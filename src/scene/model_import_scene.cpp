// Assimp's scene -> one merged Mesh, its Skeleton and clips, still in the file's own units and
// axes (model_import.cpp converts to the world afterwards). Static scenes arrive pre-transformed
// by Assimp; skinned ones keep their node hierarchy, which becomes the skeleton here.

#include "scene/model_import.hpp"

#include <algorithm>
#include <array>
#include <assimp/scene.h>
#include <cmath>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/mat3x3.hpp>
#include <string>
#include <unordered_map>

namespace snowcap::import_detail {
namespace {

glm::mat4 toGlm(const aiMatrix4x4& m) {
    // Assimp stores rows (a1 a2 a3 a4 is the first row); glm takes columns.
    return glm::mat4(m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2, m.a3, m.b3, m.c3, m.d3, m.a4,
                     m.b4, m.c4, m.d4);
}

glm::vec3 toGlm(const aiVector3D& v) {
    return {v.x, v.y, v.z};
}
glm::quat toGlm(const aiQuaternion& q) {
    return glm::quat(q.w, q.x, q.y, q.z);
}

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r]))
                return false;
    return true;
}

std::string nameOf(const aiString& name, const char* fallback, std::size_t index) {
    if (name.length > 0)
        return std::string(name.C_Str());
    return std::string(fallback) + " " + std::to_string(index);
}

// The node tree flattened depth first, so every parent comes before its children. Iterative:
// a hostile file can nest nodes deeper than the stack would allow.
struct FlatNode {
    const aiNode* node = nullptr;
    int parent = -1;
    glm::mat4 global{1.0f};
};

std::vector<FlatNode> flatten(const aiNode* root) {
    std::vector<FlatNode> nodes;
    std::vector<std::pair<const aiNode*, int>> stack{{root, -1}};
    while (!stack.empty()) {
        const auto [node, parent] = stack.back();
        stack.pop_back();
        const glm::mat4 parentGlobal =
            parent >= 0 ? nodes[static_cast<std::size_t>(parent)].global : glm::mat4(1.0f);
        nodes.push_back({node, parent, parentGlobal * toGlm(node->mTransformation)});
        const int self = static_cast<int>(nodes.size()) - 1;
        for (unsigned c = node->mNumChildren; c-- > 0;)
            if (node->mChildren[c])
                stack.push_back({node->mChildren[c], self});
    }
    return nodes;
}

// One vertex's influences, strongest first, at most four.
struct Influences {
    std::array<std::uint16_t, 4> joints{};
    std::array<float, 4> weights{};

    void add(std::uint16_t joint, float weight) {
        for (int k = 0; k < 4; ++k)
            if (weight > weights[k]) {
                for (int m = 3; m > k; --m) {
                    joints[m] = joints[m - 1];
                    weights[m] = weights[m - 1];
                }
                joints[k] = joint;
                weights[k] = weight;
                return;
            }
    }
};

// Adds one aiMesh's triangles to the merged model. `placeVertex` gives a vertex's position
// transform (its normals use the inverse transpose); `skin`, when not null, the influences of
// every vertex of this aiMesh. Vertices no triangle uses are left out, so they cannot widen the
// bounds. Returns an error reason, or "".
template <class PlaceVertex>
std::string appendMesh(const aiMesh& source, PlaceVertex placeVertex,
                       const std::vector<Influences>* skin, ImportedModel& model) {
    if (!source.mVertices)
        return "";
    for (unsigned v = 0; v < source.mNumVertices; ++v)
        if (!finite(toGlm(source.mVertices[v])))
            return "non-finite vertex positions";
    Mesh& mesh = model.mesh;
    std::vector<std::uint32_t> remap(source.mNumVertices, UINT32_MAX);
    bool normalsBad = !source.mNormals;
    const std::size_t firstIndex = mesh.indices.size();
    for (unsigned f = 0; f < source.mNumFaces; ++f) {
        const aiFace& face = source.mFaces[f];
        if (face.mNumIndices != 3 || !face.mIndices)
            continue; // points and lines cannot press into snow
        for (unsigned k = 0; k < 3; ++k) {
            const unsigned v = face.mIndices[k];
            if (v >= source.mNumVertices)
                return "triangle indices out of range";
            if (remap[v] == UINT32_MAX) {
                remap[v] = static_cast<std::uint32_t>(mesh.positions.size());
                const glm::mat4 place = placeVertex(v);
                mesh.positions.push_back(
                    glm::vec3(place * glm::vec4(toGlm(source.mVertices[v]), 1)));
                glm::vec3 normal(0.0f, 0.0f, 1.0f);
                if (source.mNormals) {
                    normal = glm::inverseTranspose(glm::mat3(place)) * toGlm(source.mNormals[v]);
                    const float length = glm::length(normal);
                    if (length > 0.0f && std::isfinite(length))
                        normal /= length;
                    else
                        normalsBad = true;
                }
                mesh.normals.push_back(normal);
                if (skin) {
                    const Influences& influences = (*skin)[v];
                    model.joints.emplace_back(influences.joints[0], influences.joints[1],
                                              influences.joints[2], influences.joints[3]);
                    model.weights.emplace_back(influences.weights[0], influences.weights[1],
                                               influences.weights[2], influences.weights[3]);
                }
            }
            mesh.indices.push_back(remap[v]);
        }
    }
    if (normalsBad) {
        // Missing or broken normals (Assimp generates missing ones, so this is a file with NaN
        // or zero normals): area-weighted face normals of this part instead.
        model.warnings.push_back("mesh '" + std::string(source.mName.C_Str()) +
                                 "': unusable normals recomputed");
        const std::uint32_t firstVertex =
            mesh.indices.size() > firstIndex
                ? *std::min_element(mesh.indices.begin() + firstIndex, mesh.indices.end())
                : 0;
        for (std::size_t v = firstVertex; v < mesh.normals.size(); ++v)
            mesh.normals[v] = glm::vec3(0.0f);
        for (std::size_t i = firstIndex; i + 2 < mesh.indices.size(); i += 3) {
            const glm::vec3 &a = mesh.positions[mesh.indices[i]],
                            &b = mesh.positions[mesh.indices[i + 1]],
                            &c = mesh.positions[mesh.indices[i + 2]];
            const glm::vec3 areaNormal = glm::cross(b - a, c - a);
            for (int k = 0; k < 3; ++k)
                mesh.normals[mesh.indices[i + k]] += areaNormal;
        }
        for (std::size_t v = firstVertex; v < mesh.normals.size(); ++v) {
            const float length = glm::length(mesh.normals[v]);
            mesh.normals[v] = length > 0.0f && std::isfinite(length) ? mesh.normals[v] / length
                                                                     : glm::vec3(0, 0, 1);
        }
    }
    return "";
}

std::string collectStatic(const std::vector<FlatNode>& nodes, const aiScene& scene,
                          ImportedModel& model) {
    for (const FlatNode& flat : nodes)
        for (unsigned m = 0; m < flat.node->mNumMeshes; ++m) {
            const aiMesh* mesh = scene.mMeshes[flat.node->mMeshes[m]];
            auto place = [&](unsigned) {
                return flat.global;
            };
            if (std::string reason = appendMesh(*mesh, place, nullptr, model); !reason.empty())
                return reason;
        }
    return "";
}

template <class T, class Convert>
bool convertKeys(const T* keys, unsigned count, double ticksPerSecond, Convert convert, auto& out) {
    for (unsigned k = 0; k < count; ++k) {
        const double timeS = keys[k].mTime / ticksPerSecond;
        const auto value = convert(keys[k].mValue);
        if (!std::isfinite(timeS))
            return false;
        if constexpr (requires { value.w; }) {
            if (!std::isfinite(value.w) || !finite(glm::vec3(value.x, value.y, value.z)) ||
                glm::length(value) == 0.0f)
                return false;
            out.push_back({timeS, glm::normalize(value)});
        } else {
            if (!finite(value))
                return false;
            out.push_back({timeS, value});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.timeS < b.timeS; });
    return true;
}

void collectClips(const aiScene& scene, const std::unordered_map<std::string, int>& nodeByName,
                  const std::vector<int>& jointOfNode, ImportedModel& model) {
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        const aiAnimation* animation = scene.mAnimations[a];
        AnimationClip clip;
        clip.name = nameOf(animation->mName, "clip", a);
        // Assimp leaves 0 when the file does not say; 25 is its own viewer's assumption.
        const double ticksPerSecond =
            animation->mTicksPerSecond > 0.0 ? animation->mTicksPerSecond : 25.0;
        clip.durationS = std::max(0.0, animation->mDuration / ticksPerSecond);
        bool usable = std::isfinite(clip.durationS);
        for (unsigned c = 0; c < animation->mNumChannels && usable; ++c) {
            const aiNodeAnim* channel = animation->mChannels[c];
            const auto node = nodeByName.find(channel->mNodeName.C_Str());
            if (node == nodeByName.end()) {
                model.warnings.push_back("clip '" + clip.name + "': channel for missing node '" +
                                         channel->mNodeName.C_Str() + "' ignored");
                continue;
            }
            const int joint = jointOfNode[static_cast<std::size_t>(node->second)];
            if (joint < 0)
                continue; // a node that moves no part of the mesh
            JointChannel out;
            out.joint = joint;
            usable = convertKeys(
                         channel->mPositionKeys, channel->mNumPositionKeys, ticksPerSecond,
                         [](auto& v) { return toGlm(v); }, out.translations) &&
                     convertKeys(
                         channel->mRotationKeys, channel->mNumRotationKeys, ticksPerSecond,
                         [](auto& q) { return toGlm(q); }, out.rotations) &&
                     convertKeys(
                         channel->mScalingKeys, channel->mNumScalingKeys, ticksPerSecond,
                         [](auto& v) { return toGlm(v); }, out.scales);
            for (const auto* keys : {&out.translations, &out.scales})
                if (!keys->empty())
                    clip.durationS = std::max(clip.durationS, keys->back().timeS);
            if (!out.rotations.empty())
                clip.durationS = std::max(clip.durationS, out.rotations.back().timeS);
            clip.channels.push_back(std::move(out));
        }
        if (!usable) {
            model.warnings.push_back("clip '" + clip.name +
                                     "': non-finite keyframes, clip dropped");
            continue;
        }
        if (animation->mNumMorphMeshChannels > 0 || animation->mNumMeshChannels > 0)
            model.warnings.push_back("clip '" + clip.name + "': morph/mesh channels ignored");
        model.clips.push_back(std::move(clip));
    }
}

// The skin of a mesh with bones: each vertex's weights by joint, normalised to sum 1. Vertices
// without weights (invalid glTF, but seen) follow the root joint rigidly instead of collapsing
// to the origin; they are marked in `unweighted`.
void skinByBones(const aiMesh& mesh, const std::unordered_map<std::string, int>& nodeByName,
                 const std::vector<int>& jointOfNode, std::vector<Influences>& skin,
                 std::vector<char>& unweighted) {
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone* bone = mesh.mBones[b];
        const int joint = jointOfNode[static_cast<std::size_t>(nodeByName.at(bone->mName.C_Str()))];
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight& weight = bone->mWeights[w];
            if (weight.mVertexId < mesh.mNumVertices && weight.mWeight > 0.0f &&
                std::isfinite(weight.mWeight))
                skin[weight.mVertexId].add(static_cast<std::uint16_t>(joint), weight.mWeight);
        }
    }
    for (std::size_t v = 0; v < skin.size(); ++v) {
        Influences& influences = skin[v];
        const float total = influences.weights[0] + influences.weights[1] + influences.weights[2] +
                            influences.weights[3];
        if (total > 0.0f) {
            for (float& weight : influences.weights)
                weight /= total;
        } else {
            influences.add(0, 1.0f);
            unweighted[v] = 1;
        }
    }
}

std::string collectSkinned(const std::vector<FlatNode>& nodes, const aiScene& scene,
                           ImportedModel& model) {
    std::unordered_map<std::string, int> nodeByName;
    for (std::size_t n = nodes.size(); n-- > 0;)
        nodeByName[nodes[n].node->mName.C_Str()] = static_cast<int>(n); // the first one wins

    // Joints: every bone, every node that carries a rigid mesh, and all their ancestors, so
    // an animated armature node above the bones moves the mesh too.
    std::vector<char> needed(nodes.size(), 0);
    auto need = [&](int n) {
        for (; n >= 0 && !needed[static_cast<std::size_t>(n)];
             n = nodes[static_cast<std::size_t>(n)].parent)
            needed[static_cast<std::size_t>(n)] = 1;
    };
    for (std::size_t n = 0; n < nodes.size(); ++n)
        for (unsigned m = 0; m < nodes[n].node->mNumMeshes; ++m) {
            const aiMesh* mesh = scene.mMeshes[nodes[n].node->mMeshes[m]];
            if (mesh->mNumBones == 0)
                need(static_cast<int>(n));
            for (unsigned b = 0; b < mesh->mNumBones; ++b) {
                const auto bone = nodeByName.find(mesh->mBones[b]->mName.C_Str());
                if (bone == nodeByName.end())
                    return std::string("bone '") + mesh->mBones[b]->mName.C_Str() +
                           "' has no node in the hierarchy";
                need(bone->second);
            }
        }
    const auto jointCount = static_cast<std::size_t>(std::count(needed.begin(), needed.end(), 1));
    if (jointCount > kMaxImportJoints)
        return "too many joints (" + std::to_string(jointCount) + ", limit " +
               std::to_string(kMaxImportJoints) + ")";

    std::vector<int> jointOfNode(nodes.size(), -1);
    Skeleton& skeleton = model.skeleton;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        if (!needed[n])
            continue;
        jointOfNode[n] = static_cast<int>(skeleton.joints.size());
        Joint joint;
        joint.name = nodes[n].node->mName.C_Str();
        joint.parent =
            nodes[n].parent >= 0 ? jointOfNode[static_cast<std::size_t>(nodes[n].parent)] : -1;
        aiVector3D scaling, position;
        aiQuaternion rotation;
        nodes[n].node->mTransformation.Decompose(scaling, rotation, position);
        joint.restTranslation = toGlm(position);
        joint.restRotation = glm::normalize(toGlm(rotation));
        joint.restScale = toGlm(scaling);
        if (!finite(joint.restTranslation) || !finite(joint.restScale) ||
            !std::isfinite(joint.restRotation.w) ||
            !finite(glm::vec3(joint.restRotation.x, joint.restRotation.y, joint.restRotation.z)))
            return "non-finite node transform '" + joint.name + "'";
        skeleton.joints.push_back(std::move(joint));
    }
    // Nodes that are no bone are bound where they rest, so they too skin to identity at rest.
    const std::vector<glm::mat4> restGlobals = jointGlobals(skeleton, nullptr, 0.0, false);
    for (std::size_t j = 0; j < skeleton.joints.size(); ++j)
        skeleton.joints[j].inverseBind = glm::inverse(restGlobals[j]);
    std::vector<char> bound(skeleton.joints.size(), 0);
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        for (unsigned b = 0; b < scene.mMeshes[m]->mNumBones; ++b) {
            const aiBone* bone = scene.mMeshes[m]->mBones[b];
            const auto node = nodeByName.find(bone->mName.C_Str());
            const int joint =
                node == nodeByName.end() ? -1 : jointOfNode[static_cast<std::size_t>(node->second)];
            if (joint < 0 || bound[static_cast<std::size_t>(joint)])
                continue;
            const glm::mat4 offset = toGlm(bone->mOffsetMatrix);
            if (!finite(offset))
                return std::string("non-finite bind matrix of bone '") + bone->mName.C_Str() + "'";
            skeleton.joints[static_cast<std::size_t>(joint)].inverseBind = offset;
            bound[static_cast<std::size_t>(joint)] = 1;
        }

    for (std::size_t n = 0; n < nodes.size(); ++n)
        for (unsigned m = 0; m < nodes[n].node->mNumMeshes; ++m) {
            const aiMesh* mesh = scene.mMeshes[nodes[n].node->mMeshes[m]];
            std::vector<Influences> skin(mesh->mNumVertices);
            std::string reason;
            if (mesh->mNumBones == 0) {
                // A rigid mesh follows its node: bound with weight 1, at its rest place.
                const int joint = jointOfNode[n];
                for (Influences& influences : skin)
                    influences.add(static_cast<std::uint16_t>(joint), 1.0f);
                const glm::mat4 place =
                    glm::inverse(skeleton.joints[static_cast<std::size_t>(joint)].inverseBind);
                reason = appendMesh(
                    *mesh, [&](unsigned) { return place; }, &skin, model);
            } else {
                std::vector<char> unweighted(skin.size(), 0);
                skinByBones(*mesh, nodeByName, jointOfNode, skin, unweighted);
                if (const auto count = std::count(unweighted.begin(), unweighted.end(), 1))
                    model.warnings.push_back(
                        "mesh '" + std::string(mesh->mName.C_Str()) +
                        "': " + std::to_string(count) +
                        " vertices without bone weights follow the root joint");
                // At rest such a vertex stays where the file puts it: B0^-1 * G0^-1 undoes the
                // root joint's skinning matrix.
                const glm::mat4 rootPlace =
                    glm::inverse(skeleton.joints[0].inverseBind) * glm::inverse(restGlobals[0]);
                auto place = [&](unsigned v) {
                    return unweighted[v] ? rootPlace : glm::mat4(1.0f);
                };
                reason = appendMesh(*mesh, place, &skin, model);
            }
            if (!reason.empty())
                return reason;
        }
    collectClips(scene, nodeByName, jointOfNode, model);
    return "";
}

} // namespace

std::size_t countTriangles(const aiScene& scene) {
    std::size_t triangles = 0;
    for (const FlatNode& flat : flatten(scene.mRootNode))
        for (unsigned m = 0; m < flat.node->mNumMeshes; ++m)
            if (flat.node->mMeshes[m] < scene.mNumMeshes)
                triangles += scene.mMeshes[flat.node->mMeshes[m]]->mNumFaces;
    return triangles;
}

bool hasBones(const aiScene& scene) {
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        if (scene.mMeshes[m]->mNumBones > 0)
            return true;
    return false;
}

std::string collectScene(const aiScene& scene, ImportedModel& model) {
    const std::vector<FlatNode> nodes = flatten(scene.mRootNode);
    return hasBones(scene) ? collectSkinned(nodes, scene, model)
                           : collectStatic(nodes, scene, model);
}

} // namespace snowcap::import_detail
