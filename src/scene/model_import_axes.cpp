// The up-axis and unit conversion of an imported model: from the file's own coordinates (as
// each Assimp reader hands them over) to snowcap's centimetres with Z up (docs/meshes.md, section
// 2). Split from model_import.cpp, which applies it.

#include "scene/model_import.hpp"

#include <assimp/scene.h>
#include <cstdint>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <optional>
#include <sstream>

namespace snowcap {

std::string import_detail::number(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

namespace {

using import_detail::number;

// A number from the scene metadata whatever type the reader stored it as.
std::optional<double> metadataNumber(const aiMetadata* metadata, const char* key) {
    if (!metadata)
        return std::nullopt;
    for (unsigned i = 0; i < metadata->mNumProperties; ++i) {
        if (std::strcmp(metadata->mKeys[i].C_Str(), key) != 0 || !metadata->mValues[i].mData)
            continue;
        const void* data = metadata->mValues[i].mData;
        switch (metadata->mValues[i].mType) {
        case AI_BOOL:
            return *static_cast<const bool*>(data) ? 1.0 : 0.0;
        case AI_INT32:
            return *static_cast<const std::int32_t*>(data);
        case AI_UINT64:
            return static_cast<double>(*static_cast<const std::uint64_t*>(data));
        case AI_FLOAT:
            return *static_cast<const float*>(data);
        case AI_DOUBLE:
            return *static_cast<const double*>(data);
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// The file's right (coord) axis becomes +X, its up +Z and its front -Y. For a Y-up file with
// front +Z and right +X (glTF, and FBX's defaults) that is +90 degrees about X, written out
// exactly so no cos(90 degrees) noise creeps in. A left-handed axis system comes out mirrored.
glm::mat4 axesToWorld(int up, int upSign, int front, int frontSign, int coord, int coordSign) {
    glm::mat4 axes(0.0f);
    axes[coord] = glm::vec4(float(coordSign), 0, 0, 0);
    axes[up] = glm::vec4(0, 0, float(upSign), 0);
    axes[front] = glm::vec4(0, float(-frontSign), 0, 0);
    axes[3] = glm::vec4(0, 0, 0, 1);
    return axes;
}

} // namespace

UpAxis formatUpAxis(std::string_view extension) {
    // Valve's SMD (the Source engine is Z up) and AutoCAD's DXF (Z up, drawings in the XY
    // plane). tests/scene/UpAxisTest.cpp writes a Z-up wedge in each and checks how it comes in.
    if (extension == "smd" || extension == "dxf")
        return UpAxis::Z;
    return UpAxis::Y;
}

namespace {

// Assimp's DXF reader turns the drawing from Z up to Y up itself ((x, y, z) -> (x, z, -y));
// this undoes it, so the conversion starts from the file's own coordinates. Every other
// reader hands its file's coordinates over as written (Collada's applies the file's
// <up_axis>; such files carry the axis they mean, so nothing here needs undoing).
glm::mat4 undoReaderRotation(std::string_view extension) {
    if (extension != "dxf")
        return glm::mat4(1.0f);
    glm::mat4 undo(0.0f);
    undo[0] = glm::vec4(1, 0, 0, 0);
    undo[1] = glm::vec4(0, 0, 1, 0);  // Assimp's y was the file's z
    undo[2] = glm::vec4(0, -1, 0, 0); // Assimp's z was the file's -y
    undo[3] = glm::vec4(0, 0, 0, 1);
    return undo;
}

const char* axisName(UpAxis axis) {
    return axis == UpAxis::Z ? "+Z" : "+Y";
}

} // namespace

// glTF is metres with +Y up; Assimp's FBX reader keeps the file's own units and axes and passes
// FBX GlobalSettings on as metadata; other readers hand over metres in the format's own up axis
// (formatUpAxis). An explicit up_axis replaces the metadata's or the format's axis (FBX units
// still apply).
import_detail::WorldConversion import_detail::fileToWorld(const aiScene& scene,
                                                          const std::string& extension,
                                                          UpAxis requested,
                                                          std::vector<std::string>& warnings) {
    const aiMetadata* metadata = scene.mMetaData;
    const auto unit = metadataNumber(metadata, "UnitScaleFactor");
    const auto upAxis = metadataNumber(metadata, "UpAxis");
    if (requested != UpAxis::Auto || (!unit && !upAxis)) {
        const bool gltf = extension == "gltf" || extension == "glb";
        const UpAxis up = requested != UpAxis::Auto ? requested : formatUpAxis(extension);
        double cmPerUnit = 100.0;
        std::string source;
        if (unit && std::isfinite(*unit) && *unit > 0.0) {
            cmPerUnit = *unit;
            source = "FBX GlobalSettings: 1 unit = " + number(cmPerUnit) + " cm";
        } else {
            source = gltf ? "glTF: metres" : "no unit or axis metadata: assumed metres";
        }
        source += requested != UpAxis::Auto ? std::string(", up_axis = ") + axisName(up)
                  : gltf                    ? std::string(", +Y up")
                  : up == UpAxis::Z         ? ", ." + extension + " is a Z-up format: +Z up"
                                            : std::string(", +Y up");
        const glm::mat4 axes = up == UpAxis::Z ? glm::mat4(1.0f) : axesToWorld(1, 1, 2, 1, 0, 1);
        return {glm::scale(glm::mat4(1.0f), glm::vec3(float(cmPerUnit))) * axes *
                    undoReaderRotation(extension),
                source + " -> x" + number(cmPerUnit) + " to cm" +
                    (up == UpAxis::Z ? ", already Z up" : ", +90 deg about X to Z up")};
    }
    double cmPerUnit = unit.value_or(1.0);
    if (!(cmPerUnit > 0.0) || !std::isfinite(cmPerUnit)) {
        warnings.push_back("UnitScaleFactor " + number(cmPerUnit) + " is unusable; taken as 1 cm");
        cmPerUnit = 1.0;
    }
    auto axis = [&](const char* key, double fallback) {
        const double value = metadataNumber(metadata, key).value_or(fallback);
        return std::isfinite(value) && std::abs(value) < 8.0 ? static_cast<int>(value) : -1;
    };
    auto sign = [&](const char* key) {
        return axis(key, 1) < 0 ? -1 : 1;
    };
    int up = axis("UpAxis", 1), front = axis("FrontAxis", 2), coord = axis("CoordAxis", 0);
    int upSign = sign("UpAxisSign"), frontSign = sign("FrontAxisSign"),
        coordSign = sign("CoordAxisSign");
    const bool permutation = up >= 0 && up < 3 && front >= 0 && front < 3 && coord >= 0 &&
                             coord < 3 && up != front && up != coord && front != coord;
    if (!permutation) {
        warnings.push_back("FBX axis settings are not three distinct axes; taken as +Y up");
        up = 1, front = 2, coord = 0, upSign = frontSign = coordSign = 1;
    }
    const char* names = "XYZ";
    auto signed_ = [&](int s, int a) {
        return std::string(s > 0 ? "+" : "-") + names[a];
    };
    const std::string description =
        "FBX GlobalSettings: 1 unit = " + number(cmPerUnit) + " cm, up " + signed_(upSign, up) +
        ", front " + signed_(frontSign, front) + ", right " + signed_(coordSign, coord) + " -> x" +
        number(cmPerUnit) + " to cm, up axis to +Z";
    return {glm::scale(glm::mat4(1.0f), glm::vec3(static_cast<float>(cmPerUnit))) *
                axesToWorld(up, upSign, front, frontSign, coord, coordSign),
            description};
}

} // namespace snowcap
