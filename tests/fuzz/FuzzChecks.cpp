#include "FuzzChecks.hpp"

#include "core/config.hpp"
#include "scene/model_import.hpp"

#include <cmath>
#include <string_view>

namespace snowcap::fuzz {

namespace {

// One line: not empty, no control characters (a newline would break "one line per error").
std::string oneLineProblem(const std::string& message) {
    if (message.empty())
        return "empty error message";
    for (const char c : message)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return "error message is not one line: " + message;
    return {};
}

} // namespace

std::string checkConfigInput(std::span<const std::uint8_t> bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto loaded = loadSettingsFromText(text, "fuzz.toml");
    const auto* error = std::get_if<ConfigError>(&loaded);
    if (!error)
        return {};
    if (auto problem = oneLineProblem(error->message); !problem.empty())
        return problem;
    if (!error->message.starts_with("fuzz.toml"))
        return "error message does not name the file: " + error->message;
    return {};
}

std::string meshFormatHint(std::span<const std::uint8_t> bytes) {
    const std::string_view head(reinterpret_cast<const char*>(bytes.data()),
                                std::min<std::size_t>(bytes.size(), 32));
    if (head.starts_with("glTF"))
        return "glb";
    if (head.starts_with("Kaydara FBX Binary") || head.find("FBXHeader") != head.npos ||
        head.starts_with("; FBX"))
        return "fbx";
    if (head.starts_with("{"))
        return "gltf";
    return "obj";
}

std::string checkMeshInput(std::span<const std::uint8_t> bytes) {
    const std::string hint = meshFormatHint(bytes);
    const auto imported = importModelFromMemory(std::as_bytes(bytes), hint);
    if (const auto* error = std::get_if<std::string>(&imported)) {
        if (auto problem = oneLineProblem(*error); !problem.empty())
            return problem;
        if (!error->starts_with("<memory>." + hint))
            return "error message does not name the input: " + *error;
        return {};
    }
    const ImportedModel& model = std::get<ImportedModel>(imported);
    const Mesh& mesh = model.mesh;
    if (mesh.indices.empty() || mesh.indices.size() % 3 != 0)
        return "imported mesh without whole triangles";
    if (mesh.normals.size() != mesh.positions.size())
        return "normals and positions differ in count";
    for (const std::uint32_t index : mesh.indices)
        if (index >= mesh.positions.size())
            return "index out of range";
    for (const auto& p : mesh.positions)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return "non-finite vertex position accepted";
    if (model.skinned()) {
        if (model.joints.size() != mesh.positions.size() ||
            model.weights.size() != mesh.positions.size())
            return "skin attributes differ in count from positions";
        const std::size_t jointCount = model.skeleton.joints.size();
        for (std::size_t v = 0; v < model.joints.size(); ++v) {
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k) {
                if (model.weights[v][k] > 0.0f && model.joints[v][k] >= jointCount)
                    return "joint index out of range";
                if (!std::isfinite(model.weights[v][k]) || model.weights[v][k] < 0.0f)
                    return "bad skin weight";
                sum += model.weights[v][k];
            }
            if (std::abs(sum - 1.0f) > 1e-3f)
                return "skin weights do not sum to 1";
        }
    }
    return {};
}

} // namespace snowcap::fuzz
