#pragma once
// Deformer meshes from files: anything Assimp reads (glTF 2.0 and FBX first), converted to
// snowcap's world (centimetres, Z up), merged into one Mesh, with its skeleton and clips when
// the file is skinned. Only src/scene/ touches Assimp. No GL.
//
// Errors are values: one line, "FILE: REASON", for example
//   assets/x.glb: not a mesh file Assimp can read (<Assimp's message>)
//   x.glb: contains no triangle meshes
//   x.glb: cannot open file (No such file or directory)
//   x.fbx: non-finite vertex positions
// Nothing throws and no input crashes the importer; docs/meshes.md lists the rules and limits.

#include "core/settings.hpp"
#include "scene/mesh.hpp"
#include "scene/skeleton.hpp"

#include <cstddef>
#include <filesystem>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

// Per-deformer adjustments, applied after the unit/axis conversion in this order: scale,
// rotation, fit to a height; then the model is placed (lowest point at z = 0, centred on the
// origin in x and y) and finally moved by offsetCm.
// The bounds every file import runs within, whatever the file says about itself
// (import.max_memory_mib, import.max_seconds; docs/reliability.md says how they are enforced).
struct ImportLimits {
    double maxMemoryMiB = 2048.0; // memory the import may use on top of the process's own
    double maxSeconds = 20.0;     // wall-clock time from start to the model handed back
};

struct ImportOptions {
    ImportLimits limits;
    double scale = 1.0;           // uniform, > 0
    double fitHeightCm = 0.0;     // > 0: uniform scale so the rest pose is this tall (Z extent)
    glm::vec3 rotationDeg{0.0f};  // Euler angles in degrees about X, then Y, then Z (world axes)
    glm::vec3 offsetCm{0.0f};     // added after placement
    UpAxis upAxis = UpAxis::Auto; // the file's up axis: auto = metadata, else the format's
};

// The up axis a format's files use when they carry no metadata, as Assimp hands them over
// (docs/meshes.md, section 2): Z for the Z-up formats Assimp does not rotate (SMD, DXF), else Y.
UpAxis formatUpAxis(std::string_view extension);

// Limits that keep absurd inputs away from the GPU buffers (documented in docs/meshes.md).
inline constexpr std::uintmax_t kMaxImportFileBytes = 512ull << 20;
inline constexpr std::size_t kMaxImportTriangles = 2'000'000;
inline constexpr std::size_t kMaxImportJoints = 256;   // the GPU skinning's matrix array
inline constexpr double kMaxModelExtentCm = 100'000.0; // 1 km: anything bigger is a unit mistake
inline constexpr double kMinModelExtentCm = 0.01;      // 0.1 mm: anything smaller is a point

struct ImportedModel {
    Mesh mesh; // cm, Z up; the bind pose when skinned
    // Per vertex when skinned (empty otherwise): four joint indices into skeleton.joints and
    // their weights, normalised to sum 1; unused slots have weight 0.
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton; // its root carries the file -> world transform
    std::vector<AnimationClip> clips;

    // What inspect-mesh reports.
    std::string sourceFormat; // e.g. "glTF 2.0 binary (.glb)", "FBX (.fbx)"
    std::string conversion;   // the unit and up-axis decision, in words
    std::size_t sourceMeshes = 0;
    std::vector<std::string> materials;
    Aabb restBounds; // of the rest pose in the world, after placement
    std::vector<std::string> warnings;

    bool skinned() const { return !skeleton.empty() && !joints.empty(); }
    std::size_t triangleCount() const { return mesh.indices.size() / 3; }
    const AnimationClip* findClip(std::string_view name) const; // null when absent
};

// Reads the file in a child process held to options.limits (scene/model_import_child.cpp), so a
// file that would take gigabytes or hang, or that crashes a reader, costs one error line:
//   x.off: needs more than 2048 MiB to import (limit import.max_memory_mib)
//   x.obj: takes more than 20 s to import (limit import.max_seconds)
//   x.3ds: the importer crashed on it (Segmentation fault)
std::variant<ImportedModel, std::string> importModel(const std::filesystem::path& path,
                                                     const ImportOptions& options = {});

// The same from bytes in memory, in this process and without the limits (the fuzzers and tests
// use it; untrusted files go through importModel). formatHint is the file extension ("glb",
// "fbx"), which both picks the reader and names the input in errors ("<memory>.glb: ...").
std::variant<ImportedModel, std::string> importModelFromMemory(std::span<const std::byte> bytes,
                                                               const std::string& formatHint,
                                                               const ImportOptions& options = {});

} // namespace snowcap

// Shared by the model_import*.cpp files only.
struct aiScene;
namespace snowcap::import_detail {
std::size_t countTriangles(const aiScene& scene); // over node references, instances counted
bool hasBones(const aiScene& scene);
// A look at a file's bytes before Assimp reads them (model_import_check.cpp): a reason when it is
// damaged in a way Assimp would turn into a crash or gigabytes of memory, or a patched copy to
// read instead when a harmless rewrite avoids the trouble.
struct PreRead {
    std::string reason;
    std::optional<std::string> patched;
};
PreRead checkBeforeReading(std::span<const std::byte> bytes);
// OFF and PLY header counts against the bytes that follow (model_import_headers.cpp): a reason
// when the header claims more items than the file can hold, else "".
std::string checkDeclaredCounts(std::string_view text);
// Merges the scene into `model` in the file's own units and axes; returns a reason or "".
std::string collectScene(const aiScene& scene, ImportedModel& model);
// The file's coordinates to centimetres with Z up (model_import_axes.cpp): from the scene's
// metadata (FBX), else the format's convention, unless `requested` names the up axis.
struct WorldConversion {
    glm::mat4 matrix{1.0f}; // file -> centimetres, Z up
    std::string description;
};
WorldConversion fileToWorld(const aiScene& scene, const std::string& extension, UpAxis requested,
                            std::vector<std::string>& warnings);
std::string number(double value); // shortest readable form, for messages
// importModel's work, in the calling process and unbounded (the child runs it).
std::variant<ImportedModel, std::string> importInProcess(const std::filesystem::path& path,
                                                         const ImportOptions& options);
} // namespace snowcap::import_detail
