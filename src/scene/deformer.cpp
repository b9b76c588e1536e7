#include "scene/deformer.hpp"

#include "scene/mesh_sanity.hpp"
#include "scene/model_import.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <iomanip>
#include <map>
#include <numbers>
#include <sstream>

namespace snowcap {
namespace {

using Placement = DeformerSettings::Placement;

void transformMesh(Mesh& mesh, const glm::mat4& transform) {
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(transform)));
    for (glm::vec3& p : mesh.positions)
        p = glm::vec3(transform * glm::vec4(p, 1.0f));
    for (glm::vec3& n : mesh.normals)
        n = glm::normalize(normalMatrix * n);
}

glm::mat4 eulerDeg(const glm::vec3& degrees) {
    const glm::vec3 r = glm::radians(degrees);
    return glm::rotate(glm::mat4(1.0f), r.z, glm::vec3(0, 0, 1)) *
           glm::rotate(glm::mat4(1.0f), r.y, glm::vec3(0, 1, 0)) *
           glm::rotate(glm::mat4(1.0f), r.x, glm::vec3(1, 0, 0));
}

// What every deformer shares, whatever its mesh: path, placement, facing, player.
void setMotion(Deformer& deformer, const DeformerSettings& settings, const DeformerGround& ground) {
    deformer.name = settings.name;
    const double lift = settings.placement == Placement::Ground ? ground.groundZCm : 0.0;
    deformer.path = DeformerPath::fromSettings(settings, lift);
    if (settings.placement == Placement::Draped)
        deformer.drape = ground.drape;
    deformer.facePath = settings.facePath;
    deformer.inPlace = settings.rootMotion == DeformerSettings::RootMotion::InPlace;
    deformer.contact = settings.contact;
    if (settings.player) {
        PlayerState player;
        player.speedCmS = settings.speedCmS;
        const PathPose start = deformer.path.at(deformer.path.startS());
        player.startCm = start.positionCm;
        player.startHeadingRad = start.headingRad;
        deformer.player = player;
        deformer.resetPlayer();
    }
}

// The load options that shape a mesh, exactly (17 digits), for the mesh key.
std::string shapingOf(const DeformerSettings& s) {
    std::ostringstream out;
    out << std::setprecision(17) << "scale " << s.scale << " fit " << s.fitHeightCm << " rot "
        << s.rotationDeg.x << ',' << s.rotationDeg.y << ',' << s.rotationDeg.z << " offset "
        << s.offsetCm.x << ',' << s.offsetCm.y << ',' << s.offsetCm.z;
    return out.str();
}

// The turn that takes +Z to `up` about the horizontal axis between them (none when level).
glm::mat4 slopeTurn(const glm::dvec3& up) {
    const glm::dvec3 axis = glm::cross(glm::dvec3(0.0, 0.0, 1.0), up);
    const double sine = glm::length(axis);
    if (sine < 1e-9)
        return glm::mat4(1.0f);
    return glm::rotate(glm::mat4(1.0f), float(std::atan2(sine, up.z)), glm::vec3(axis / sine));
}

// The vertical shear that lays the horizontal plane through the origin on the plane square to
// `up` (z += the slope's rise along x and y): a character stays upright, and each foot planted
// at an offset from its root lands on the slope's tangent plane there, not level with the root.
glm::mat4 slopeShear(const glm::dvec3& up) {
    glm::mat4 shear(1.0f);
    if (up.z > 0.0) {
        shear[0][2] = float(-up.x / up.z);
        shear[1][2] = float(-up.y / up.z);
    }
    return shear;
}

float wrapAngle(double radians) {
    return float(std::remainder(radians, 2.0 * std::numbers::pi));
}

} // namespace

PathPose Deformer::poseAt(double timeS) const {
    if (bodyPose) {
        const glm::vec3 forward((*bodyPose)[0]);
        return {glm::vec3((*bodyPose)[3]), std::atan2(forward.y, forward.x)};
    }
    PathPose pose = player ? PathPose{player->positionCm, player->headingRad}
                           : path.at(inPlace ? path.startS() : timeS);
    if (drape) // the snow top under where it is now, not under its waypoints
        pose.positionCm.z =
            float(double(pose.positionCm.z) + drape->topZCm(pose.positionCm.x, pose.positionCm.y));
    return pose;
}

glm::mat4 Deformer::modelAt(double timeS) const {
    if (bodyPose)
        return *bodyPose;
    const PathPose pose = poseAt(timeS);
    glm::mat4 model = glm::translate(glm::mat4(1.0f), pose.positionCm);
    if (drape) {
        const glm::dvec3 up = drape->normalAt(pose.positionCm.x, pose.positionCm.y);
        model *= skin ? slopeShear(up) : slopeTurn(up);
    }
    if (facePath || player)
        model = glm::rotate(model, pose.headingRad, glm::vec3(0, 0, 1));
    return model;
}

std::vector<glm::mat4> Deformer::skinningAt(double timeS) const {
    if (!skin)
        return {};
    const double clipTime = player ? player->clipTimeS : timeS;
    return skinningMatrices(skin->skeleton, &skin->clip, clipTime * skin->speed + skin->phaseS,
                            true, inPlace);
}

void Deformer::drive(glm::vec2 inputDir, double dtS) {
    if (!player || !(dtS > 0.0) || !std::isfinite(dtS) || !std::isfinite(inputDir.x) ||
        !std::isfinite(inputDir.y))
        return;
    const float amount = std::min(glm::length(inputDir), 1.0f);
    if (amount < 1e-4f)
        return;
    const glm::vec2 direction = glm::normalize(inputDir);
    const glm::vec2 step = direction * float(amount * player->speedCmS * dtS);
    player->positionCm += glm::vec3(step, 0.0f);
    const double wanted = std::atan2(direction.y, direction.x);
    const double turn = std::remainder(wanted - player->headingRad, 2.0 * std::numbers::pi);
    const double most = kPlayerTurnRadPerS * dtS;
    player->headingRad = wrapAngle(player->headingRad + std::clamp(turn, -most, most));
    player->clipTimeS += dtS * amount;
}

void Deformer::resetPlayer() {
    if (!player)
        return;
    player->positionCm = player->startCm;
    player->headingRad = player->startHeadingRad;
    player->clipTimeS = 0.0;
}

double groundZCm(const SnowSettings& snow) {
    return snow.surfaceZCm - snow.depthCm;
}

DeformerGround::DeformerGround(const SnowSettings& snow, std::shared_ptr<const HeightField> terrain)
    : groundZCm(snowcap::groundZCm(snow)), drape{std::move(terrain), snow.surfaceZCm} {}

Deformer makeDeformer(const DeformerSettings& settings, const DeformerGround& ground) {
    Deformer deformer;
    setMotion(deformer, settings, ground);
    switch (settings.shape) {
    case DeformerShape::Sphere:
        deformer.mesh = makeSphere(settings.sizeCm.x);
        break;
    case DeformerShape::Box:
        deformer.mesh = makeBox(settings.sizeCm);
        break;
    case DeformerShape::Capsule:
        deformer.mesh = makeCapsule(settings.sizeCm.x, settings.sizeCm.y);
        break;
    }
    // The same overrides as a mesh file's, in the same order (docs/meshes.md, section 3).
    glm::mat4 transform = eulerDeg(settings.rotationDeg) *
                          glm::scale(glm::mat4(1.0f), glm::vec3(float(settings.scale)));
    transformMesh(deformer.mesh, transform);
    Aabb box = deformer.mesh.bounds();
    if (settings.fitHeightCm > 0.0 && box.max.z > box.min.z) {
        transformMesh(deformer.mesh,
                      glm::scale(glm::mat4(1.0f),
                                 glm::vec3(float(settings.fitHeightCm / (box.max.z - box.min.z)))));
        box = deformer.mesh.bounds();
    }
    // On the ground a shape stands on its lowest point, like a mesh; "absolute" keeps the
    // shape's centre on the path.
    glm::vec3 placement(-0.5f * (box.min + box.max));
    if (settings.placement != Placement::Absolute)
        placement.z = -box.min.z;
    transformMesh(deformer.mesh, glm::translate(glm::mat4(1.0f), placement + settings.offsetCm));
    std::ostringstream key;
    key << std::setprecision(17) << "shape " << int(settings.shape) << " size " << settings.sizeCm.x
        << ',' << settings.sizeCm.y << ',' << settings.sizeCm.z << ' ' << shapingOf(settings)
        << " placement " << int(settings.placement);
    deformer.meshKey = key.str();
    return deformer;
}

namespace {

using ModelCache = std::map<std::string, ImportedModel>;

std::variant<Deformer, std::string> loadWithCache(const DeformerSettings& settings,
                                                  const std::filesystem::path& root,
                                                  const DeformerGround& ground,
                                                  const ImportSettings& limits, ModelCache& cache,
                                                  std::vector<std::string>* warnings) {
    if (settings.mesh.empty())
        return makeDeformer(settings, ground);
    const std::filesystem::path file = std::filesystem::path(settings.mesh).is_absolute()
                                           ? std::filesystem::path(settings.mesh)
                                           : root / settings.mesh;
    const std::string who = "deformer '" + settings.name + "': ";
    const std::string key = "file " + file.lexically_normal().string() + ' ' + shapingOf(settings) +
                            " up " + std::to_string(int(settings.upAxis));
    auto cached = cache.find(key);
    if (cached == cache.end()) {
        ImportOptions options;
        options.limits = {limits.maxMemoryMiB, limits.maxSeconds};
        options.scale = settings.scale;
        options.fitHeightCm = settings.fitHeightCm;
        options.rotationDeg = settings.rotationDeg;
        options.offsetCm = settings.offsetCm;
        options.upAxis = settings.upAxis;
        auto imported = importModel(file, options);
        if (auto* error = std::get_if<std::string>(&imported))
            return who + *error;
        cached = cache.emplace(key, std::move(std::get<ImportedModel>(imported))).first;
        if (warnings) // once a file and its load options, as inspect-mesh says them
            for (const std::string& warning : sanityWarnings(cached->second, options))
                warnings->push_back(who + file.string() + ": " + warning);
    }
    const ImportedModel& model = cached->second;
    Deformer deformer;
    setMotion(deformer, settings, ground);
    deformer.mesh = model.mesh;
    deformer.meshKey = key;
    const AnimationClip* clip = nullptr;
    if (!settings.clip.empty() || settings.clipIndex >= 0) {
        if (!model.skinned())
            return who + file.string() + " has no skin to play a clip on";
        if (!settings.clip.empty()) {
            clip = model.findClip(settings.clip);
            if (!clip)
                return who + file.string() + " has no clip '" + settings.clip + "'";
        } else if (std::size_t(settings.clipIndex) < model.clips.size()) {
            clip = &model.clips[std::size_t(settings.clipIndex)];
        } else {
            return who + file.string() + " has " + std::to_string(model.clips.size()) +
                   (model.clips.size() == 1 ? " clip" : " clips") + ", no clip_index " +
                   std::to_string(settings.clipIndex);
        }
        deformer.skin =
            DeformerSkin{model.joints, model.weights,      model.skeleton,
                         *clip,        settings.clipSpeed, settings.clipPhase * clip->durationS};
    }
    return deformer;
}

} // namespace

std::variant<Deformer, std::string> loadDeformer(const DeformerSettings& settings,
                                                 const std::filesystem::path& root,
                                                 const DeformerGround& ground,
                                                 const ImportSettings& limits,
                                                 std::vector<std::string>* warnings) {
    ModelCache cache;
    return loadWithCache(settings, root, ground, limits, cache, warnings);
}

std::variant<std::vector<Deformer>, std::string>
loadDeformers(std::span<const DeformerSettings> settings, const std::filesystem::path& root,
              const DeformerGround& ground, const ImportSettings& limits,
              std::vector<std::string>* warnings) {
    ModelCache cache;
    std::vector<Deformer> deformers;
    deformers.reserve(settings.size());
    for (const DeformerSettings& one : settings) {
        auto loaded = loadWithCache(one, root, ground, limits, cache, warnings);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        deformers.push_back(std::move(std::get<Deformer>(loaded)));
    }
    return deformers;
}

} // namespace snowcap
