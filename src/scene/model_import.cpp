// Reading a model file with Assimp and bringing it into snowcap's world: the unit and up-axis
// conversion, the per-deformer overrides and the placement on the ground. The scene walk itself
// (merging meshes, the skeleton, the clips) is in model_import_scene.cpp.

#include "scene/model_import.hpp"

#include "core/untrusted_file.hpp"

#include <algorithm>
#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/commonMetaData.h>
#include <assimp/importerdesc.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

// Debian's Assimp 5.2 is built with its internal assertions on, and some malformed files (a
// damaged FBX, for one) reach an ai_assert, whose handler aborts the process. Defining the
// handler here takes precedence over the library's (ELF symbol interposition: the executable's
// definition wins, and it only exists where this file is linked), turning the abort into an
// exception that Assimp's reader catches and reports as an ordinary read error.
namespace Assimp {
void aiAssertViolation(const char* expression, const char* file, int line) {
    throw std::runtime_error(std::string("Assimp internal check failed: ") + expression + " (" +
                             file + ":" + std::to_string(line) + ")");
}
} // namespace Assimp

namespace snowcap {

const AnimationClip* ImportedModel::findClip(std::string_view name) const {
    for (const AnimationClip& clip : clips)
        if (clip.name == name)
            return &clip;
    return nullptr;
}

namespace {

using import_detail::fileToWorld;
using import_detail::number;
using import_detail::WorldConversion;

namespace fs = std::filesystem;

// Pre-transforming is asked for separately, and only for scenes without bones: a skinned
// scene needs its node hierarchy as the skeleton.
constexpr unsigned kReadSteps = aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                                aiProcess_JoinIdenticalVertices | aiProcess_LimitBoneWeights |
                                aiProcess_SortByPType | aiProcess_FindDegenerates |
                                aiProcess_ValidateDataStructure;

void configure(Assimp::Importer& importer) {
    // Points and lines cannot press into snow; dropping them keeps only triangle meshes.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                                aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    importer.SetPropertyBool(AI_CONFIG_PP_FD_REMOVE, true);
    // The area test would drop small but real triangles of models authored in metres.
    importer.SetPropertyBool(AI_CONFIG_PP_FD_CHECKAREA, false);
    importer.SetPropertyInteger(AI_CONFIG_PP_LBW_MAX_WEIGHTS, 4);
    // Generated normals keep hard edges on boxy shapes (the default 175 degrees rounds them).
    importer.SetPropertyFloat(AI_CONFIG_PP_GSN_MAX_SMOOTHING_ANGLE, 80.0f);
    // Pivot helper nodes would sit between an FBX skeleton's joints and rename them.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_CAMERAS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_LIGHTS, false);
}

// Assimp's messages can span lines; ours is one line of bounded length.
std::string oneLine(std::string_view text) {
    std::string line;
    for (char c : text) {
        const bool space = std::isspace(static_cast<unsigned char>(c)) ||
                           std::iscntrl(static_cast<unsigned char>(c));
        if (space && (line.empty() || line.back() == ' '))
            continue;
        line += space ? ' ' : c;
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    if (line.size() > 300)
        line = line.substr(0, 297) + "...";
    return line.empty() ? "no reason given" : line;
}

// Assimp's reason, reworded where it is the symptom of something the user can name better.
std::string readFailure(const std::string& name, const std::string& extension,
                        std::string_view assimpMessage) {
    const std::string message = oneLine(assimpMessage);
    if (message.find("No suitable reader found") != std::string::npos)
        return name + ": not a mesh file Assimp can read (no reader recognises its content" +
               (extension.empty() ? std::string() : " as ." + extension) + ")";
    // Validation and primitive sorting say it this way when nothing with triangles is left.
    if (message.find("mNumMeshes is 0") != std::string::npos ||
        message.find("No meshes remaining") != std::string::npos ||
        message.find("has no faces") != std::string::npos)
        return name + ": contains no triangle meshes (" + message + ")";
    return name + ": not a mesh file Assimp can read (" + message + ")";
}

std::string lowerExtension(std::string text) {
    if (!text.empty() && text.front() == '.')
        text.erase(0, 1);
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string formatName(const Assimp::Importer& importer, const std::string& extension) {
    if (extension == "glb")
        return "glTF 2.0 binary (.glb)";
    if (extension == "gltf")
        return "glTF (.gltf)";
    if (extension == "fbx")
        return "FBX (.fbx)";
    const std::size_t index = importer.GetImporterIndex(extension.c_str());
    const aiImporterDesc* info =
        index < importer.GetImporterCount() ? importer.GetImporterInfo(index) : nullptr;
    const std::string reader = info && info->mName ? info->mName : "Assimp";
    return reader + " (." + extension + ")";
}

Aabb boundsOf(const std::vector<glm::vec3>& points, const glm::mat4& transform) {
    Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (const glm::vec3& p : points) {
        const glm::vec3 q = glm::vec3(transform * glm::vec4(p, 1.0f));
        box.min = glm::min(box.min, q);
        box.max = glm::max(box.max, q);
    }
    return box;
}

std::string checkOptions(const ImportOptions& options) {
    if (!(options.scale > 0.0) || !std::isfinite(options.scale))
        return "scale must be a positive number, got " + number(options.scale);
    if (!(options.fitHeightCm >= 0.0) || !std::isfinite(options.fitHeightCm))
        return "fit_height_cm must be 0 (off) or positive, got " + number(options.fitHeightCm);
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(options.rotationDeg[k]) || !std::isfinite(options.offsetCm[k]))
            return "rotation and offset must be finite numbers";
    return "";
}

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Node transforms can turn finite vertices into NaN (a node scaled to zero has no inverse), so
// what goes to the GPU is checked once it is assembled.
std::string checkFinite(const ImportedModel& model) {
    for (const Joint& joint : model.skeleton.joints)
        for (int c = 0; c < 4; ++c)
            if (!finite(glm::vec3(joint.inverseBind[c])) || !std::isfinite(joint.inverseBind[c].w))
                return "joint '" + joint.name + "' has a degenerate transform (scaled to zero?)";
    for (const glm::vec3& p : model.mesh.positions)
        if (!finite(p))
            return "non-finite vertex positions";
    return "";
}

// Moves the file-space model into the world: conversion, overrides, placement. The whole
// transform ends up in the skeleton's root, so skinned poses come out in the world too.
std::string placeInWorld(ImportedModel& model, const glm::mat4& fileToWorldMatrix,
                         const ImportOptions& options) {
    // The rest pose decides heights and placement: for a skinned model the mesh as its
    // skeleton holds it when no clip plays.
    const std::vector<glm::vec3> rest =
        model.skinned() ? skinMesh(model.mesh, model.joints, model.weights,
                                   skinningMatrices(model.skeleton, nullptr, 0.0, false))
                              .positions
                        : model.mesh.positions;
    const glm::vec3 radians = glm::radians(options.rotationDeg);
    const glm::mat4 rotation = glm::rotate(glm::mat4(1.0f), radians.z, glm::vec3(0, 0, 1)) *
                               glm::rotate(glm::mat4(1.0f), radians.y, glm::vec3(0, 1, 0)) *
                               glm::rotate(glm::mat4(1.0f), radians.x, glm::vec3(1, 0, 0));
    glm::mat4 transform =
        rotation * glm::scale(glm::mat4(1.0f), glm::vec3(float(options.scale))) * fileToWorldMatrix;
    if (options.fitHeightCm > 0.0) {
        const Aabb box = boundsOf(rest, transform);
        const double height = double(box.max.z) - double(box.min.z);
        if (!(height > kMinModelExtentCm))
            return "cannot fit a height: the model is flat in Z";
        transform =
            glm::scale(glm::mat4(1.0f), glm::vec3(float(options.fitHeightCm / height))) * transform;
    }
    Aabb box = boundsOf(rest, transform);
    const glm::vec3 size = box.max - box.min;
    const double extent = std::max({size.x, size.y, size.z});
    if (!std::isfinite(extent) || extent > kMaxModelExtentCm)
        return "model is " + number(extent) + " cm across after conversion (limit " +
               number(kMaxModelExtentCm) + " cm); check its units or set a scale";
    if (extent < kMinModelExtentCm)
        return "model has zero size";
    const glm::vec3 placement(-0.5f * (box.min.x + box.max.x), -0.5f * (box.min.y + box.max.y),
                              -box.min.z);
    transform = glm::translate(glm::mat4(1.0f), placement + options.offsetCm) * transform;

    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(transform)));
    for (glm::vec3& p : model.mesh.positions)
        p = glm::vec3(transform * glm::vec4(p, 1.0f));
    for (glm::vec3& n : model.mesh.normals) {
        const glm::vec3 turned = normalMatrix * n;
        const float length = glm::length(turned);
        n = length > 0.0f && std::isfinite(length) ? turned / length : glm::vec3(0, 0, 1);
    }
    // A mirroring conversion (a left-handed FBX axis system) turns triangles inside out.
    if (glm::determinant(glm::mat3(transform)) < 0.0f)
        for (std::size_t i = 0; i + 2 < model.mesh.indices.size(); i += 3)
            std::swap(model.mesh.indices[i + 1], model.mesh.indices[i + 2]);
    if (model.skinned()) {
        const glm::mat4 inverse = glm::inverse(transform);
        for (Joint& joint : model.skeleton.joints)
            joint.inverseBind = joint.inverseBind * inverse;
        model.skeleton.root = transform;
    }
    model.restBounds = boundsOf(rest, transform);
    return "";
}

// Serves one file from memory (a patched copy, see import_detail::PreRead) and every other file
// from disk, so a .gltf's buffers and images still load from beside it.
class PatchedFileSystem : public Assimp::DefaultIOSystem {
public:
    PatchedFileSystem(std::string path, std::string bytes)
        : path_(std::move(path)), bytes_(std::move(bytes)) {}
    bool Exists(const char* file) const override {
        return path_ == file || DefaultIOSystem::Exists(file);
    }
    Assimp::IOStream* Open(const char* file, const char* mode = "rb") override {
        if (path_ == file)
            return new Assimp::MemoryIOStream(reinterpret_cast<const std::uint8_t*>(bytes_.data()),
                                              bytes_.size());
        return DefaultIOSystem::Open(file, mode);
    }

private:
    std::string path_, bytes_;
};

// Everything after Assimp has read the file, shared by the file and memory entry points.
std::variant<ImportedModel, std::string> finish(Assimp::Importer& importer, const aiScene* scene,
                                                const std::string& name,
                                                const std::string& extension,
                                                const ImportOptions& options) {
    if (!scene)
        return readFailure(name, extension, importer.GetErrorString());
    if (!scene->mRootNode || scene->mNumMeshes == 0 || import_detail::countTriangles(*scene) == 0)
        return name + ": contains no triangle meshes";
    if (const std::size_t triangles = import_detail::countTriangles(*scene);
        triangles > kMaxImportTriangles)
        return name + ": too many triangles (" + std::to_string(triangles) + ", limit " +
               std::to_string(kMaxImportTriangles) + ")";

    ImportedModel model;
    model.sourceFormat = formatName(importer, extension);
    model.sourceMeshes = scene->mNumMeshes;
    for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
        aiString materialName;
        scene->mMaterials[m]->Get(AI_MATKEY_NAME, materialName);
        model.materials.emplace_back(materialName.C_Str());
    }
    if (!import_detail::hasBones(*scene)) {
        if (scene->mNumAnimations > 0)
            model.warnings.push_back(std::to_string(scene->mNumAnimations) +
                                     " clip(s) ignored: without a skin the model is static");
        scene = importer.ApplyPostProcessing(aiProcess_PreTransformVertices);
        if (!scene)
            return readFailure(name, extension, importer.GetErrorString());
    }
    if (std::string reason = import_detail::collectScene(*scene, model); !reason.empty())
        return name + ": " + reason;
    if (model.mesh.indices.empty())
        return name + ": contains no triangle meshes";
    if (std::string reason = checkFinite(model); !reason.empty())
        return name + ": " + reason;

    const WorldConversion conversion =
        fileToWorld(*scene, extension, options.upAxis, model.warnings);
    model.conversion = conversion.description;
    if (std::string reason = placeInWorld(model, conversion.matrix, options); !reason.empty())
        return name + ": " + reason;
    return model;
}

} // namespace

std::variant<ImportedModel, std::string>
import_detail::importInProcess(const fs::path& path, const ImportOptions& options) {
    const std::string name = path.string();
    if (std::string reason = checkOptions(options); !reason.empty())
        return name + ": " + reason;
    // Opening it ourselves first gives the operating system's reason, which Assimp hides, and
    // refuses what is not a regular file before Assimp could block on it.
    auto opened = UntrustedFile::open(path);
    if (auto* error = std::get_if<std::string>(&opened))
        return *error;
    UntrustedFile& file = std::get<UntrustedFile>(opened);
    if (file.size() == 0)
        return name + ": empty file";
    if (file.size() > kMaxImportFileBytes)
        return name + ": file too large (" + std::to_string(file.size() >> 20) + " MiB, limit " +
               std::to_string(kMaxImportFileBytes >> 20) + " MiB)";

    const std::string extension = lowerExtension(path.extension().string());
    try {
        // Files are looked through before Assimp reads them (model_import_check.cpp).
        std::string bytes(file.size(), '\0');
        if (auto error = file.read(bytes.data(), bytes.size()))
            return *error;
        import_detail::PreRead check = import_detail::checkBeforeReading(
            {reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
        if (!check.reason.empty())
            return name + ": " + check.reason;
        Assimp::Importer importer;
        configure(importer);
        if (check.patched)
            importer.SetIOHandler(new PatchedFileSystem(name, std::move(*check.patched)));
        const aiScene* scene = importer.ReadFile(name, kReadSteps);
        return finish(importer, scene, name, extension, options);
    } catch (const std::exception& exception) {
        return name + ": not a mesh file Assimp can read (" + oneLine(exception.what()) + ")";
    }
}

std::variant<ImportedModel, std::string> importModelFromMemory(std::span<const std::byte> bytes,
                                                               const std::string& formatHint,
                                                               const ImportOptions& options) {
    const std::string extension = lowerExtension(formatHint);
    const std::string name = "<memory>." + extension;
    if (std::string reason = checkOptions(options); !reason.empty())
        return name + ": " + reason;
    if (bytes.empty())
        return name + ": empty input";
    if (bytes.size() > kMaxImportFileBytes)
        return name + ": input too large (" + std::to_string(bytes.size() >> 20) + " MiB, limit " +
               std::to_string(kMaxImportFileBytes >> 20) + " MiB)";
    try {
        import_detail::PreRead check = import_detail::checkBeforeReading(bytes);
        if (!check.reason.empty())
            return name + ": " + check.reason;
        if (check.patched)
            bytes = {reinterpret_cast<const std::byte*>(check.patched->data()),
                     check.patched->size()};
        Assimp::Importer importer;
        configure(importer);
        const aiScene* scene =
            importer.ReadFileFromMemory(bytes.data(), bytes.size(), kReadSteps, extension.c_str());
        return finish(importer, scene, name, extension, options);
    } catch (const std::exception& exception) {
        return name + ": not a mesh file Assimp can read (" + oneLine(exception.what()) + ")";
    }
}

} // namespace snowcap
