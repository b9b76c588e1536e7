// make_assets: writes the bundled deformer meshes of assets/meshes/ (docs/meshes.md).
//
//   make_assets [OUT_DIR]        (default assets/meshes)
//
// Each asset is built procedurally in snowcap's world (centimetres, Z up, facing +X, standing
// on z = 0) and written twice with Assimp's exporters: .glb in metres with +Y up, as glTF
// requires, and .fbx in centimetres with +Y up, which is what Assimp's FBX writer declares in
// its GlobalSettings (UnitScaleFactor 1, UpAxis 1). Then every file is read back through
// snowcap's importer and must come out the same size (within 1%) and Z up; the biped's feet
// must plant and lift in both. Output is deterministic: the files are committed.

#include "make_assets_plants.hpp"
#include "scene/model_import.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>
#include <vector>

using namespace snowcap;
namespace fs = std::filesystem;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

struct Asset {
    std::string name;
    Mesh mesh; // cm, Z up, facing +X, lowest point on z = 0
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton;
    std::vector<AnimationClip> clips;
};

// ---- geometry -----------------------------------------------------------------------------

void append(Mesh& to, const Mesh& part, const glm::mat4& transform = glm::mat4(1.0f)) {
    const auto base = static_cast<std::uint32_t>(to.positions.size());
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(transform)));
    for (std::size_t v = 0; v < part.positions.size(); ++v) {
        to.positions.push_back(glm::vec3(transform * glm::vec4(part.positions[v], 1.0f)));
        to.normals.push_back(glm::normalize(normalMatrix * part.normals[v]));
    }
    for (std::uint32_t index : part.indices)
        to.indices.push_back(base + index);
}

Mesh box(glm::vec3 low, glm::vec3 high) {
    Mesh out;
    append(out, makeBox(0.5f * (high - low)), glm::translate(glm::mat4(1.0f), 0.5f * (low + high)));
    return out;
}

Mesh ellipsoid(glm::vec3 centre, glm::vec3 radii, int segments = 16, int rings = 8) {
    Mesh out;
    append(out, makeSphere(1.0f, segments, rings),
           glm::translate(glm::mat4(1.0f), centre) * glm::scale(glm::mat4(1.0f), radii));
    return out;
}

// A flat convex polygon with its own vertices (hard edges), wound to face `outward`.
void face(Mesh& mesh, std::initializer_list<glm::vec3> corners, glm::vec3 outward) {
    const std::vector<glm::vec3> p(corners);
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    for (const glm::vec3& corner : p) {
        mesh.positions.push_back(corner);
        mesh.normals.push_back(glm::normalize(outward));
    }
    const bool flip = glm::dot(glm::cross(p[1] - p[0], p[2] - p[0]), outward) < 0.0f;
    for (std::uint32_t k = 1; k + 1 < p.size(); ++k)
        mesh.indices.insert(mesh.indices.end(),
                            {base, base + (flip ? k + 1 : k), base + (flip ? k : k + 1)});
}

// A prism along Y from a polygon in the XZ plane that is star-shaped around `centre`:
// side walls and two caps fanned from the centre.
Mesh extrudeAlongY(const std::vector<glm::vec2>& profile, glm::vec2 centre, float y0, float y1) {
    Mesh out;
    const std::size_t n = profile.size();
    for (std::size_t i = 0; i < n; ++i) {
        const glm::vec2 a = profile[i], b = profile[(i + 1) % n];
        const glm::vec2 edge = b - a;
        glm::vec2 normal(edge.y, -edge.x);
        if (glm::dot(normal, 0.5f * (a + b) - centre) < 0.0f)
            normal = -normal;
        face(out, {{a.x, y0, a.y}, {b.x, y0, b.y}, {b.x, y1, b.y}, {a.x, y1, a.y}},
             {normal.x, 0.0f, normal.y});
        for (float y : {y0, y1})
            face(out, {{centre.x, y, centre.y}, {a.x, y, a.y}, {b.x, y, b.y}},
                 {0.0f, y == y0 ? -1.0f : 1.0f, 0.0f});
    }
    return out;
}

std::vector<glm::vec2> circle(glm::vec2 centre, float radius, int segments) {
    std::vector<glm::vec2> points;
    for (int i = 0; i < segments; ++i) {
        const float angle = 2.0f * kPi * float(i) / float(segments);
        points.push_back(centre + radius * glm::vec2(std::cos(angle), std::sin(angle)));
    }
    return points;
}

// A tyre's side outline: `blocks` tread blocks of full radius with grooves between them.
std::vector<glm::vec2> treadOutline(glm::vec2 centre, float radius, float grooveDepth, int blocks) {
    std::vector<glm::vec2> points;
    const float pitch = 2.0f * kPi / float(blocks);
    auto at = [&](float r, float angle) {
        return centre + r * glm::vec2(std::cos(angle), std::sin(angle));
    };
    for (int i = 0; i < blocks; ++i) {
        const float start = pitch * float(i);
        for (float f : {0.0f, 0.3f, 0.6f})
            points.push_back(at(radius, start + f * pitch));
        points.push_back(at(radius - grooveDepth, start + 0.6f * pitch));
        points.push_back(at(radius - grooveDepth, start + pitch));
    }
    return points;
}

// A bar of rectangular section swept along a path in the XZ plane at y = yCentre.
Mesh sweep(const std::vector<glm::vec2>& path, float thickness, float width, float yCentre) {
    Mesh out;
    struct Ring {
        glm::vec3 centre, up;
    };
    std::vector<Ring> rings;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const glm::vec2 tangent =
            glm::normalize(path[std::min(i + 1, path.size() - 1)] - path[i > 0 ? i - 1 : 0]);
        rings.push_back({{path[i].x, yCentre, path[i].y}, {-tangent.y, 0.0f, tangent.x}});
    }
    const glm::vec3 side(0.0f, 0.5f * width, 0.0f);
    auto corner = [&](const Ring& ring, float u, float s) {
        return ring.centre + ring.up * (0.5f * thickness * u) + side * s;
    };
    for (std::size_t i = 0; i + 1 < rings.size(); ++i) {
        const Ring &a = rings[i], &b = rings[i + 1];
        const glm::vec3 up = glm::normalize(a.up + b.up);
        for (float u : {-1.0f, 1.0f})
            face(out, {corner(a, u, -1), corner(b, u, -1), corner(b, u, 1), corner(a, u, 1)},
                 up * u);
        for (float s : {-1.0f, 1.0f})
            face(out, {corner(a, -1, s), corner(b, -1, s), corner(b, 1, s), corner(a, 1, s)},
                 glm::vec3(0.0f, s, 0.0f));
    }
    for (const auto& [ring, next] :
         {std::pair{rings.front(), rings[1]}, std::pair{rings.back(), rings[rings.size() - 2]}})
        face(out,
             {corner(ring, -1, -1), corner(ring, 1, -1), corner(ring, 1, 1), corner(ring, -1, 1)},
             ring.centre - next.centre);
    return out;
}

// Latitude-longitude spheres have zero-area triangles at their poles. Readers drop some of them
// (Assimp's FindDegenerates, FBX's float rounding) and not others, so they go before writing and
// every format then holds the same triangles.
void dropSlivers(Mesh& mesh) {
    std::vector<std::uint32_t> kept;
    for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
        const glm::vec3 a = mesh.positions[mesh.indices[i]],
                        b = mesh.positions[mesh.indices[i + 1]],
                        c = mesh.positions[mesh.indices[i + 2]];
        if (0.5f * glm::length(glm::cross(b - a, c - a)) > 1e-3f)
            kept.insert(kept.end(), &mesh.indices[i], &mesh.indices[i] + 3);
    }
    mesh.indices = std::move(kept);
}

// ---- the static assets -----------------------------------------------------------------------

Asset boot() {
    Asset asset{"boot"};
    Mesh& m = asset.mesh;
    append(m, box({-15.0f, -5.5f, 1.5f}, {15.0f, 5.5f, 4.5f})); // sole, 30 cm long
    for (int bar = 0; bar < 8; ++bar) {                         // transverse tread bars
        const float x = -13.0f + float(bar) * 26.0f / 7.0f;
        append(m, box({x - 1.0f, -5.2f, 0.0f}, {x + 1.0f, 5.2f, 1.5f}));
    }
    append(m, box({-14.0f, -5.0f, 4.5f}, {8.0f, 5.0f, 14.0f}));   // upper
    append(m, box({8.0f, -4.8f, 4.5f}, {14.5f, 4.8f, 10.0f}));    // toe cap
    append(m, box({-14.0f, -5.0f, 14.0f}, {-2.0f, 5.0f, 26.0f})); // shaft
    return asset;
}

Asset wheels() {
    Asset asset{"wheels"};
    const float radius = 30.0f, halfTrack = 75.0f, halfWidth = 10.0f;
    const std::vector<glm::vec2> tyre = treadOutline({0.0f, radius}, radius, 1.5f, 18);
    for (float side : {-1.0f, 1.0f})
        append(asset.mesh, extrudeAlongY(tyre, {0.0f, radius}, side * halfTrack - halfWidth,
                                         side * halfTrack + halfWidth));
    append(asset.mesh, extrudeAlongY(circle({0.0f, radius}, 3.0f, 12), {0.0f, radius},
                                     -halfTrack + halfWidth, halfTrack - halfWidth));
    return asset;
}

Asset paw() {
    Asset asset{"paw"};
    Mesh& m = asset.mesh;
    append(m, ellipsoid({0.0f, 0.0f, 2.0f}, {4.5f, 5.5f, 2.0f})); // main pad
    for (const glm::vec2 toe : {glm::vec2(6.5f, -5.5f), glm::vec2(8.5f, -2.0f),
                                glm::vec2(8.5f, 2.0f), glm::vec2(6.5f, 5.5f)})
        append(m, ellipsoid({toe.x, toe.y, 1.8f}, {2.0f, 1.8f, 1.8f}, 12, 6));
    append(m, ellipsoid({3.0f, 0.0f, 6.0f}, {8.0f, 8.0f, 4.5f})); // the foot above the pads
    append(m, box({-3.0f, -4.0f, 8.0f}, {5.0f, 4.0f, 20.0f}));    // leg stub
    return asset;
}

Asset sphere() {
    Asset asset{"sphere"};
    append(asset.mesh, makeSphere(25.0f, 32, 16), glm::translate(glm::mat4(1.0f), {0, 0, 25}));
    return asset;
}

Asset sled() {
    Asset asset{"sled"};
    std::vector<glm::vec2> path{{-75.0f, 1.0f}};
    for (int i = 0; i <= 10; ++i) { // flat, then curling up over the front
        const float angle = glm::radians(-90.0f + 110.0f * float(i) / 10.0f);
        path.push_back(glm::vec2(40.0f, 31.0f) +
                       30.0f * glm::vec2(std::cos(angle), std::sin(angle)));
    }
    for (float y : {-25.0f, 25.0f}) {
        append(asset.mesh, sweep(path, 2.0f, 2.5f, y));
        for (float x : {-50.0f, 0.0f, 30.0f})
            append(asset.mesh, box({x - 1.5f, y - 1.2f, 2.0f}, {x + 1.5f, y + 1.2f, 18.0f}));
    }
    for (float x : {-50.0f, 0.0f, 30.0f})
        append(asset.mesh, box({x - 4.0f, -28.0f, 18.0f}, {x + 4.0f, 28.0f, 20.5f}));
    return asset;
}

// The plants ([[foliage]]) are static meshes built in make_assets_plants.cpp.
Asset grassTuft() {
    return {"grass_tuft", assets::grassTuft()};
}

Asset bush() {
    return {"bush", assets::bush()};
}

// ---- the skinned biped and its walk ----------------------------------------------------------

enum BipedJoint { Pelvis, Spine, Head, ThighL, ShinL, FootL, ThighR, ShinR, FootR, JointCount };
constexpr float kHipZ = 92.0f, kKneeZ = 50.0f, kAnkleZ = 9.0f, kLegY = 10.0f;

// Two-bone IK in the sagittal plane: the global pitch of thigh and shin (0 = straight down,
// positive = swung forward) that put the ankle at `ankle` relative to the hip (x fwd, z up).
std::pair<float, float> legPitches(glm::vec2 ankle) {
    const float thigh = kHipZ - kKneeZ, shin = kKneeZ - kAnkleZ;
    const float reach = std::min(glm::length(ankle), thigh + shin - 0.01f);
    const float toAnkle = std::atan2(ankle.x, -ankle.y);
    const float atHip =
        std::acos((thigh * thigh + reach * reach - shin * shin) / (2 * thigh * reach));
    const float atKnee =
        std::acos((thigh * thigh + shin * shin - reach * reach) / (2 * thigh * shin));
    const float thighPitch = toAnkle + atHip; // the knee bends forward, as a knee does
    return {thighPitch, thighPitch - (kPi - atKnee)};
}

// A pitch forward is a rotation about -Y here (about +Y would swing a down-pointing leg back).
glm::quat pitch(float angle) {
    return glm::angleAxis(-angle, glm::vec3(0.0f, 1.0f, 0.0f));
}

AnimationClip walk(const Skeleton& skeleton) {
    constexpr int kKeys = 30; // per second: both feet change phase on a key; the last repeats key 0
    constexpr float kHalfStride = 18.0f; // ankle travel +-18 cm about the hip
    constexpr float kStance = 0.6f;      // fraction of the cycle a foot is planted
    constexpr float kLift = 12.0f;       // highest ankle lift in swing
    constexpr float kPelvisZ = 86.0f;    // lowered from 92 so the legs can reach the stride
    AnimationClip clip{"walk", 1.0, {}};
    for (int j = 0; j < JointCount; ++j)
        clip.channels.push_back({j, {}, {}, {}});
    for (int key = 0; key <= kKeys; ++key) {
        const double time = double(key) / kKeys;
        std::vector<glm::quat> rotations(JointCount, glm::quat(1, 0, 0, 0));
        for (int leg = 0; leg < 2; ++leg) {
            // The right foot runs half a cycle behind the left.
            const float phase = std::fmod(float(time) + (leg == 0 ? 0.0f : 0.5f), 1.0f);
            glm::vec2 ankle; // relative to the hip, x forward, z up
            if (phase < kStance) {
                ankle = {kHalfStride * (1.0f - 2.0f * phase / kStance), kAnkleZ - kPelvisZ};
            } else {
                const float swing = (phase - kStance) / (1.0f - kStance);
                ankle = {kHalfStride * -std::cos(kPi * swing),
                         kAnkleZ - kPelvisZ + kLift * std::sin(kPi * swing)};
            }
            const auto [thighPitch, shinPitch] = legPitches(ankle);
            const int thigh = leg == 0 ? ThighL : ThighR;
            rotations[thigh] = pitch(thighPitch);
            rotations[thigh + 1] = pitch(shinPitch - thighPitch);
            rotations[thigh + 2] = pitch(-shinPitch); // the foot stays level
        }
        for (int j = 0; j < JointCount; ++j) {
            JointChannel& channel = clip.channels[j];
            glm::vec3 translation = skeleton.joints[j].restTranslation;
            if (j == Pelvis)
                translation.z = kPelvisZ;
            channel.translations.push_back({time, translation});
            channel.rotations.push_back({time, rotations[j]});
            channel.scales.push_back({time, glm::vec3(1.0f)});
        }
    }
    return clip;
}

Asset biped() {
    Asset asset{"biped"};
    const glm::vec3 rest[JointCount] = {
        {0, 0, kHipZ},      {0, 0, 105},         {0, 0, 148},
        {0, kLegY, kHipZ},  {0, kLegY, kKneeZ},  {0, kLegY, kAnkleZ},
        {0, -kLegY, kHipZ}, {0, -kLegY, kKneeZ}, {0, -kLegY, kAnkleZ}};
    const int parents[JointCount] = {-1,    Pelvis, Spine,  Pelvis, ThighL,
                                     ShinL, Pelvis, ThighR, ShinR};
    const char* names[JointCount] = {"pelvis", "spine",   "head",   "thigh_l", "shin_l",
                                     "foot_l", "thigh_r", "shin_r", "foot_r"};
    for (int j = 0; j < JointCount; ++j) {
        Joint joint;
        joint.name = names[j];
        joint.parent = parents[j];
        joint.restTranslation = rest[j] - (parents[j] >= 0 ? rest[parents[j]] : glm::vec3(0.0f));
        joint.inverseBind = glm::translate(glm::mat4(1.0f), -rest[j]); // bound at rest
        asset.skeleton.joints.push_back(joint);
    }
    // Rigid boxes, except the top of each shin, shared by thigh and shin so the knee bends.
    auto part = [&](const Mesh& mesh, int joint, int blendTopWith = -1, float topZ = 0.0f) {
        for (const glm::vec3& p : mesh.positions) {
            const bool blended = blendTopWith >= 0 && p.z >= topZ - 0.01f;
            asset.joints.emplace_back(joint, blended ? blendTopWith : 0, 0, 0);
            asset.weights.emplace_back(blended ? 0.5f : 1.0f, blended ? 0.5f : 0.0f, 0, 0);
        }
        append(asset.mesh, mesh);
    };
    part(box({-10, -17, 86}, {10, 17, 105}), Pelvis);
    part(box({-11, -19, 105}, {11, 19, 145}), Spine);
    part(box({-4, -4, 143}, {4, 4, 150}), Head);
    part(ellipsoid({0, 0, 159}, glm::vec3(11.0f), 16, 8), Head); // top of the head at 170 cm
    for (float side : {1.0f, -1.0f}) {
        const int thigh = side > 0 ? ThighL : ThighR;
        const float y = side * kLegY;
        part(box({-7, y - 7, kKneeZ}, {7, y + 7, kHipZ}), thigh);
        part(box({-5.5f, y - 5.5f, kAnkleZ}, {5.5f, y + 5.5f, kKneeZ}), thigh + 1, thigh, kKneeZ);
        part(box({-6, y - 5.5f, 0}, {20, y + 5.5f, kAnkleZ}), thigh + 2); // foot, toes at +X
    }
    asset.clips.push_back(walk(asset.skeleton));
    return asset;
}

// ---- writing ---------------------------------------------------------------------------------

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

aiMatrix4x4 toAi(const glm::mat4& m) {
    return aiMatrix4x4(m[0][0], m[1][0], m[2][0], m[3][0], m[0][1], m[1][1], m[2][1], m[3][1],
                       m[0][2], m[1][2], m[2][2], m[3][2], m[0][3], m[1][3], m[2][3], m[3][3]);
}

aiVector3D toAi(glm::vec3 v) {
    return {v.x, v.y, v.z};
}

template <class T> T* copyArray(const std::vector<T>& values) {
    T* out = new T[values.size()];
    std::copy(values.begin(), values.end(), out);
    return out;
}

aiNode* addChild(aiNode* parent, const std::string& name, const glm::mat4& transform) {
    auto* child = new aiNode(name);
    child->mTransformation = toAi(transform);
    child->mParent = parent;
    std::vector<aiNode*> children(parent->mChildren, parent->mChildren + parent->mNumChildren);
    children.push_back(child);
    delete[] parent->mChildren;
    parent->mChildren = copyArray(children);
    parent->mNumChildren = static_cast<unsigned>(children.size());
    return child;
}

// The asset as an Assimp scene in the file's units and axes; the caller deletes it.
aiScene* buildScene(const Asset& asset, const FileBasis& basis) {
    const glm::mat4 toFile = basis.matrix(), toWorld = glm::inverse(toFile);
    const glm::mat3 normalToFile = glm::mat3(FileBasis::zUpToYUp());
    auto* scene = new aiScene();
    scene->mRootNode = new aiNode(asset.name);
    auto* material = new aiMaterial();
    const aiString materialName(asset.name + "_material");
    material->AddProperty(&materialName, AI_MATKEY_NAME);
    const aiColor4D grey(0.8f, 0.8f, 0.8f, 1.0f);
    material->AddProperty(&grey, 1, AI_MATKEY_COLOR_DIFFUSE);
    scene->mMaterials = new aiMaterial* [1] {
        material
    };
    scene->mNumMaterials = 1;

    auto* mesh = new aiMesh();
    mesh->mName = asset.name;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(asset.mesh.positions.size());
    mesh->mVertices = new aiVector3D[mesh->mNumVertices];
    mesh->mNormals = new aiVector3D[mesh->mNumVertices];
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        mesh->mVertices[v] = toAi(glm::vec3(toFile * glm::vec4(asset.mesh.positions[v], 1.0f)));
        mesh->mNormals[v] = toAi(normalToFile * asset.mesh.normals[v]);
    }
    mesh->mNumFaces = static_cast<unsigned>(asset.mesh.indices.size() / 3);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3];
        std::copy_n(&asset.mesh.indices[3 * f], 3, mesh->mFaces[f].mIndices);
    }
    scene->mMeshes = new aiMesh* [1] {
        mesh
    };
    scene->mNumMeshes = 1;
    aiNode* meshNode = scene->mRootNode;
    if (!asset.skeleton.empty())
        meshNode = addChild(scene->mRootNode, asset.name + "_mesh", glm::mat4(1.0f));
    meshNode->mMeshes = new unsigned[1]{0};
    meshNode->mNumMeshes = 1;
    if (asset.skeleton.empty())
        return scene;

    const std::vector<Joint>& joints = asset.skeleton.joints;
    std::vector<aiNode*> nodes;
    for (const Joint& joint : joints)
        nodes.push_back(addChild(joint.parent >= 0 ? nodes[joint.parent] : scene->mRootNode,
                                 joint.name, toFile * joint.restLocal() * toWorld));
    std::vector<aiBone*> bones;
    for (std::size_t j = 0; j < joints.size(); ++j) {
        std::vector<aiVertexWeight> weights;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v)
            for (int k = 0; k < 4; ++k)
                if (asset.joints[v][k] == j && asset.weights[v][k] > 0.0f)
                    weights.emplace_back(v, asset.weights[v][k]);
        auto* bone = new aiBone();
        bone->mName = joints[j].name;
        bone->mOffsetMatrix = toAi(toFile * joints[j].inverseBind * toWorld);
        bone->mNumWeights = static_cast<unsigned>(weights.size());
        bone->mWeights = copyArray(weights);
        bones.push_back(bone);
    }
    mesh->mBones = copyArray(bones);
    mesh->mNumBones = static_cast<unsigned>(bones.size());

    // Ticks are seconds: Assimp 5.2's FBX writer takes key times as seconds whatever
    // mTicksPerSecond says (the glTF writer divides by it, so 1 suits both).
    constexpr double kTicksPerSecond = 1.0;
    std::vector<aiAnimation*> animations;
    for (const AnimationClip& clip : asset.clips) {
        auto* animation = new aiAnimation();
        animation->mName = clip.name;
        animation->mTicksPerSecond = kTicksPerSecond;
        animation->mDuration = clip.durationS * kTicksPerSecond;
        std::vector<aiNodeAnim*> channels;
        for (const JointChannel& source : clip.channels) {
            auto* channel = new aiNodeAnim();
            channel->mNodeName = joints[source.joint].name;
            std::vector<aiVectorKey> translations, scales;
            std::vector<aiQuatKey> rotations;
            for (const auto& key : source.translations)
                translations.emplace_back(key.timeS * kTicksPerSecond,
                                          toAi(glm::vec3(toFile * glm::vec4(key.value, 0.0f))));
            for (const auto& key : source.rotations) {
                // Turning a rotation's frame turns its axis: exact for this axis permutation.
                const glm::vec3 axis =
                    normalToFile * glm::vec3(key.value.x, key.value.y, key.value.z);
                const glm::quat q(key.value.w, axis.x, axis.y, axis.z);
                rotations.emplace_back(key.timeS * kTicksPerSecond,
                                       aiQuaternion(q.w, q.x, q.y, q.z));
            }
            for (const auto& key : source.scales)
                scales.emplace_back(key.timeS * kTicksPerSecond, toAi(key.value));
            channel->mPositionKeys = copyArray(translations);
            channel->mNumPositionKeys = static_cast<unsigned>(translations.size());
            channel->mRotationKeys = copyArray(rotations);
            channel->mNumRotationKeys = static_cast<unsigned>(rotations.size());
            channel->mScalingKeys = copyArray(scales);
            channel->mNumScalingKeys = static_cast<unsigned>(scales.size());
            channels.push_back(channel);
        }
        animation->mChannels = copyArray(channels);
        animation->mNumChannels = static_cast<unsigned>(channels.size());
        animations.push_back(animation);
    }
    scene->mAnimations = copyArray(animations);
    scene->mNumAnimations = static_cast<unsigned>(animations.size());
    return scene;
}

// ---- repairing Assimp 5.2's binary FBX -------------------------------------------------------

// Assimp 5.2's binary FBX writer leaves out the 25-byte null record that must close the child
// list of every node (its NULL_RECORD constant turns into an empty string; assimp issue #4686),
// so its own reader rejects the file ("block offset is out of range"); it also stamps the wall
// clock into the header. This re-serialises the node tree with the null records and a fixed
// stamp, keeping every property byte as written.
struct FbxNode {
    std::string name, properties;
    std::uint64_t propertyCount = 0;
    std::vector<FbxNode> children;
};

std::uint64_t readU64(const std::string& bytes, std::size_t at) {
    std::uint64_t value = 0;
    for (int k = 7; k >= 0; --k)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
    return value;
}

void putU64(std::string& bytes, std::uint64_t value, std::size_t at = std::string::npos) {
    std::string little(8, '\0');
    for (int k = 0; k < 8; ++k)
        little[k] = static_cast<char>((value >> (8 * k)) & 0xff);
    at == std::string::npos ? void(bytes += little) : void(bytes.replace(at, 8, little));
}

// Nodes from `cursor` up to `end`; stops at a null record or at bytes that are not a node.
std::vector<FbxNode> readFbxNodes(const std::string& bytes, std::size_t& cursor, std::size_t end) {
    std::vector<FbxNode> nodes;
    while (cursor + 25 <= end) {
        const std::uint64_t nodeEnd = readU64(bytes, cursor);
        if (nodeEnd <= cursor || nodeEnd > end)
            break;
        FbxNode node;
        node.propertyCount = readU64(bytes, cursor + 8);
        const std::uint64_t propertyBytes = readU64(bytes, cursor + 16);
        const std::size_t nameLength = static_cast<unsigned char>(bytes[cursor + 24]);
        node.name = bytes.substr(cursor + 25, nameLength);
        node.properties = bytes.substr(cursor + 25 + nameLength, propertyBytes);
        std::size_t child = cursor + 25 + nameLength + propertyBytes;
        node.children = readFbxNodes(bytes, child, nodeEnd);
        if (node.name == "CreationTimeStamp") // 'I' + int32: a fixed 2024-01-01 00:00:00:000
            for (FbxNode& field : node.children)
                if (field.name != "Version")
                    field.properties = std::string("I") +
                                       char(field.name == "Year"                           ? 0xe8
                                            : field.name == "Month" || field.name == "Day" ? 1
                                                                                           : 0) +
                                       char(field.name == "Year" ? 0x07 : 0) + std::string(2, '\0');
        nodes.push_back(std::move(node));
        cursor = nodeEnd;
    }
    return nodes;
}

void writeFbxNode(std::string& out, const FbxNode& node) {
    const std::size_t start = out.size();
    putU64(out, 0);
    putU64(out, node.propertyCount);
    putU64(out, node.properties.size());
    out += static_cast<char>(node.name.size());
    out += node.name + node.properties;
    for (const FbxNode& child : node.children)
        writeFbxNode(out, child);
    // Which nodes close with a null record even when they have no children follows the FBX SDK
    // (and Blender's writer): those without properties, and animation stacks and layers, which
    // readers parse as compound scopes.
    if (!node.children.empty() || node.propertyCount == 0 || node.name == "AnimationStack" ||
        node.name == "AnimationLayer")
        out += std::string(25, '\0');
    putU64(out, out.size(), start);
}

std::string readBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool repairBinaryFbx(const fs::path& file) {
    const std::string bytes = readBytes(file);
    constexpr std::size_t kHeader = 27; // magic (23 bytes) + version (4)
    if (bytes.size() < kHeader + 16 || bytes.compare(0, 18, "Kaydara FBX Binary") != 0)
        return false;
    std::size_t cursor = kHeader;
    const std::vector<FbxNode> nodes = readFbxNodes(bytes, cursor, bytes.size());
    while (cursor < bytes.size() && bytes[cursor] == '\0') // the top-level null record, if any
        ++cursor;
    if (nodes.empty() || cursor + 16 > bytes.size())
        return false;
    std::string out = bytes.substr(0, kHeader);
    for (const FbxNode& node : nodes)
        writeFbxNode(out, node);
    out += std::string(25, '\0');
    out += bytes.substr(cursor, 16);                // footer id
    out += std::string(16 - out.size() % 16, '\0'); // aligned as the writer does
    out += std::string(4, '\0') + bytes.substr(23, 4) + std::string(120, '\0');
    out += bytes.substr(bytes.size() - 16); // footer magic
    std::ofstream(file, std::ios::binary | std::ios::trunc) << out;
    return true;
}

// Assimp 5.2's glTF writer leaves a gap after the JOINTS_0 data that it fills with whatever was
// on the heap (pointers included), so the .glb changes from run to run. No buffer view covers
// those bytes; zeroing every uncovered byte of the binary chunk makes the file deterministic.
bool scrubGlb(const fs::path& file) {
    std::string bytes = readBytes(file);
    auto u32 = [&](std::size_t at) {
        std::uint32_t value = 0;
        for (int k = 3; k >= 0; --k)
            value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
        return value;
    };
    if (bytes.size() < 28 || bytes.compare(0, 4, "glTF") != 0)
        return false;
    const std::size_t jsonLength = u32(12), binHeader = 20 + jsonLength;
    if (binHeader + 8 > bytes.size())
        return true; // no binary chunk
    const std::size_t binLength = u32(binHeader), binStart = binHeader + 8;
    const auto document = nlohmann::json::parse(bytes.substr(20, jsonLength), nullptr, false);
    if (document.is_discarded() || binStart + binLength > bytes.size())
        return false;
    std::vector<char> covered(binLength, 0);
    for (const auto& view : document.value("bufferViews", nlohmann::json::array())) {
        const std::size_t offset = view.value("byteOffset", 0u),
                          length = view.value("byteLength", 0u);
        if (view.value("buffer", 0) == 0 && offset + length <= binLength)
            std::fill_n(covered.begin() + offset, length, 1);
    }
    for (std::size_t i = 0; i < binLength; ++i)
        if (!covered[i])
            bytes[binStart + i] = '\0';
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    return true;
}

// ---- checking the round trip -----------------------------------------------------------------

// The lowest z of the vertices that follow `joint` most, at time t of the first clip.
float lowestOf(const Mesh& bind, const std::vector<glm::u16vec4>& joints,
               const std::vector<glm::vec4>& weights, const Skeleton& skeleton,
               const AnimationClip& clip, int joint, double timeS) {
    const Mesh posed =
        skinMesh(bind, joints, weights, skinningMatrices(skeleton, &clip, timeS, true));
    float lowest = INFINITY;
    for (std::size_t v = 0; v < posed.positions.size(); ++v)
        if (joints[v][0] == joint && weights[v][0] > 0.5f)
            lowest = std::min(lowest, posed.positions[v].z);
    return lowest;
}

bool check(bool ok, const std::string& what) {
    if (!ok)
        std::fprintf(stderr, "make_assets: %s\n", what.c_str());
    return ok;
}

bool verify(const Asset& asset, const fs::path& file) {
    auto result = importModel(file);
    if (const auto* error = std::get_if<std::string>(&result))
        return check(false, *error);
    const ImportedModel& model = std::get<ImportedModel>(result);
    const Aabb want = asset.mesh.bounds();
    const glm::vec3 wantSize = want.max - want.min,
                    gotSize = model.restBounds.max - model.restBounds.min;
    bool ok = true;
    for (int k = 0; k < 3; ++k)
        ok &= check(std::abs(gotSize[k] - wantSize[k]) <= 0.01f * wantSize[k] + 0.01f,
                    file.string() + ": size " + "xyz"[k] + " " + std::to_string(gotSize[k]) +
                        " cm, want " + std::to_string(wantSize[k]));
    ok &= check(model.triangleCount() == asset.mesh.indices.size() / 3,
                file.string() + ": triangle count changed");
    ok &= check(model.skinned() == !asset.skeleton.empty(), file.string() + ": skin lost");
    if (asset.clips.empty() || !ok)
        return ok;
    const AnimationClip* clip = model.findClip("walk");
    if (!check(clip && std::abs(clip->durationS - 1.0) < 0.01, file.string() + ": no 1 s walk"))
        return false;
    // Feet: each plants on the ground (within 1 cm) while the other is 8 cm or more up.
    const int left = model.skeleton.find("foot_l"), right = model.skeleton.find("foot_r");
    for (const auto& [time, planted, lifted] : {std::tuple{0.3, left, right}, {0.8, right, left}}) {
        const float low =
            lowestOf(model.mesh, model.joints, model.weights, model.skeleton, *clip, planted, time);
        const float high =
            lowestOf(model.mesh, model.joints, model.weights, model.skeleton, *clip, lifted, time);
        ok &= check(std::abs(low) < 1.0f && high >= 8.0f,
                    file.string() + ": at " + std::to_string(time) + " s feet at " +
                        std::to_string(low) + " and " + std::to_string(high) + " cm");
    }
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    const fs::path outDir = argc > 1 ? fs::path(argv[1]) : fs::path("assets/meshes");
    std::error_code error;
    fs::create_directories(outDir, error);
    const FileBasis formats[] = {{"glb2", ".glb", 0.01f}, {"fbx", ".fbx", 1.0f}};
    bool ok = true;
    for (Asset asset : {boot(), wheels(), paw(), sphere(), sled(), biped(), grassTuft(), bush()}) {
        dropSlivers(asset.mesh);
        for (const FileBasis& format : formats) {
            const fs::path file = outDir / (asset.name + format.extension);
            aiScene* scene = buildScene(asset, format);
            Assimp::Exporter exporter;
            const bool written =
                exporter.Export(scene, format.exporter, file.string()) == aiReturn_SUCCESS;
            delete scene;
            if (!check(written, file.string() + ": " + exporter.GetErrorString()) ||
                !check(format.scale == 1.0f ? repairBinaryFbx(file) : scrubGlb(file),
                       file.string() + ": not the binary file Assimp should write")) {
                ok = false;
                continue;
            }
            const bool good = verify(asset, file);
            ok &= good;
            std::printf("%-24s %8ju bytes %6zu triangles %s\n", file.string().c_str(),
                        fs::file_size(file), asset.mesh.indices.size() / 3, good ? "ok" : "FAILED");
        }
    }
    return ok ? 0 : 1;
}
