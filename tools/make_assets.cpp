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
#include "make_assets_repair.hpp"
#include "make_assets_scene.hpp"
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

using assets::Asset;
using assets::FileBasis;
using assets::repairBinaryFbx;
using assets::scrubGlb;

constexpr float kPi = std::numbers::pi_v<float>;

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
