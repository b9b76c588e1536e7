#include "gpu/binding_slots.hpp"

#include <array>
#include <fmt/format.h>
#include <vector>

namespace snowcap::gpu {

const char* toString(BindingKind kind) {
    switch (kind) {
    case BindingKind::Texture:
        return "texture";
    case BindingKind::Image:
        return "image";
    case BindingKind::StorageBuffer:
        return "buffer";
    case BindingKind::UniformBlock:
        return "block";
    }
    return "?";
}

namespace {

using K = BindingKind;
constexpr std::array kTable = {
    SlotDeclaration{"SnowParams", K::UniformBlock, slot::kSnowParams},
    SlotDeclaration{"ViewParams", K::UniformBlock, slot::kViewParams},
    SlotDeclaration{"Accumulate", K::UniformBlock, slot::kAccumulate},
    SlotDeclaration{"ShadowParams", K::UniformBlock, slot::kShadowParams},
    SlotDeclaration{"JointPalette", K::StorageBuffer, slot::kJointPalette},
    SlotDeclaration{"DeformerInstances", K::StorageBuffer, slot::kDeformerInstances},
    SlotDeclaration{"DeformerRecordList", K::StorageBuffer, slot::kDeformerRecordList},
    SlotDeclaration{"Wind", K::StorageBuffer, slot::kWind},
    SlotDeclaration{"LocalPositions", K::StorageBuffer, slot::kTestLocalPositions},
    SlotDeclaration{"Snowpack", K::UniformBlock, slot::kSnowpack},
    SlotDeclaration{"PloughQuanta", K::StorageBuffer, slot::kPloughQuanta},
    SlotDeclaration{"Inside", K::StorageBuffer, slot::kPloughInside},
    SlotDeclaration{"Received", K::StorageBuffer, slot::kPloughReceived},
    SlotDeclaration{"TileState", K::StorageBuffer, slot::kTileState},
    SlotDeclaration{"TileLists", K::StorageBuffer, slot::kTileLists},
    SlotDeclaration{"snowpackState", K::Texture, slot::kSnowpackStateTexture},
    SlotDeclaration{"Weather", K::UniformBlock, slot::kWeather},
    SlotDeclaration{"WeatherTotals", K::StorageBuffer, slot::kWeatherTotals},
    SlotDeclaration{"CarriedOut", K::StorageBuffer, slot::kCarriedOut},
    SlotDeclaration{"driftRecordView", K::Image, slot::kDriftRecordView},
    SlotDeclaration{"state", K::Image, slot::kSnowpackState},
    SlotDeclaration{"previousState", K::Image, slot::kSnowpackPrevious},
    SlotDeclaration{"nextState", K::Image, slot::kSnowpackNext},
    SlotDeclaration{"groundHeight", K::Image, slot::kSnowpackGround},
    SlotDeclaration{"captureDepth", K::Texture, slot::kCaptureDepth},
    SlotDeclaration{"shiftSource", K::Texture, slot::kShiftSource},
    SlotDeclaration{"persistentBuffer", K::Texture, slot::kPersistentBuffer},
    SlotDeclaration{"blurSource", K::Texture, slot::kBlurSource},
    SlotDeclaration{"captureContact", K::Texture, slot::kCaptureContact},
    SlotDeclaration{"previous", K::Texture, slot::kPrevious},
    SlotDeclaration{"landscapeDetail", K::Texture, slot::kLandscapeDetail},
    SlotDeclaration{"groundTexture", K::Texture, slot::kGroundTexture},
    SlotDeclaration{"terrainHeight", K::Texture, slot::kCaptureTerrain},
    SlotDeclaration{"TerrainParams", K::UniformBlock, slot::kTerrainParams},
    SlotDeclaration{"terrainField", K::Texture, slot::kTerrainField},
    SlotDeclaration{"deformerShadow", K::Texture, slot::kDeformerShadow},
    SlotDeclaration{"surfaceDepth", K::Texture, slot::kSurfaceDepth},
    SlotDeclaration{"lowColour", K::Texture, slot::kLowColour},
    SlotDeclaration{"lowDepth", K::Texture, slot::kLowDepth},
    SlotDeclaration{"source", K::Texture, slot::kDebugSource},
    SlotDeclaration{"other", K::Texture, slot::kDebugOther},
    SlotDeclaration{"sourceDepth", K::Texture, slot::kDebugSourceDepth},
    SlotDeclaration{"snowBuffer", K::Texture, slot::kDebugSnowBuffer},
    SlotDeclaration{"weatherState", K::Texture, slot::kWeatherState},
    SlotDeclaration{"windTerrain", K::Texture, slot::kWindTerrain},
    SlotDeclaration{"driftFlux", K::Texture, slot::kDriftFlux},
    SlotDeclaration{"driftRecord", K::Texture, slot::kDriftRecord},
    SlotDeclaration{"crossedQuanta", K::Texture, slot::kWeatherCrossed},
};

// The opaque types a default-block uniform binds through a unit: samplers and images.
std::optional<BindingKind> opaqueKind(GLenum type) {
    switch (type) {
    case GL_SAMPLER_1D:
    case GL_SAMPLER_2D:
    case GL_SAMPLER_3D:
    case GL_SAMPLER_CUBE:
    case GL_SAMPLER_2D_SHADOW:
    case GL_SAMPLER_2D_ARRAY:
    case GL_SAMPLER_2D_ARRAY_SHADOW:
    case GL_SAMPLER_2D_MULTISAMPLE:
    case GL_SAMPLER_BUFFER:
    case GL_INT_SAMPLER_2D:
    case GL_UNSIGNED_INT_SAMPLER_2D:
        return BindingKind::Texture;
    case GL_IMAGE_2D:
    case GL_IMAGE_3D:
    case GL_IMAGE_2D_ARRAY:
    case GL_INT_IMAGE_2D:
    case GL_UNSIGNED_INT_IMAGE_2D:
        return BindingKind::Image;
    default:
        return std::nullopt;
    }
}

const char* noun(BindingKind kind) {
    switch (kind) {
    case BindingKind::Texture:
        return "sampler";
    case BindingKind::Image:
        return "image";
    case BindingKind::StorageBuffer:
        return "storage buffer";
    case BindingKind::UniformBlock:
        return "uniform block";
    }
    return "?";
}

std::string resourceName(GLuint program, GLenum interface, GLuint index) {
    GLint length = 0;
    const GLenum property = GL_NAME_LENGTH;
    glGetProgramResourceiv(program, interface, index, 1, &property, 1, nullptr, &length);
    std::string name(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetProgramResourceName(program, interface, index, length, nullptr, name.data());
    name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
    return name;
}

std::optional<std::string> mismatch(std::string_view programName, BindingKind kind,
                                    const std::string& name, unsigned bound) {
    const std::optional<unsigned> declared = declaredSlot(name, kind);
    if (!declared)
        return fmt::format("{}: {} '{}' is bound at {} and gpu/binding_slots.hpp does not "
                           "declare it",
                           programName, noun(kind), name, bound);
    if (*declared != bound)
        return fmt::format("{}: {} '{}' is bound at {}, gpu/binding_slots.hpp declares {}",
                           programName, noun(kind), name, bound, *declared);
    return std::nullopt;
}

} // namespace

std::span<const SlotDeclaration> declaredSlots() {
    return kTable;
}

std::optional<unsigned> declaredSlot(std::string_view glslName, BindingKind kind) {
    for (const SlotDeclaration& row : kTable)
        if (row.glslName == glslName && row.kind == kind)
            return row.slot;
    return std::nullopt;
}

std::vector<ProgramSlot> programSlots(GLuint program) {
    std::vector<ProgramSlot> slots;
    // Samplers and images: default-block uniforms whose value is their unit.
    GLint uniforms = 0;
    glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &uniforms);
    for (GLint u = 0; u < uniforms; ++u) {
        const GLenum properties[] = {GL_TYPE, GL_LOCATION, GL_BLOCK_INDEX};
        GLint values[3] = {0, -1, -1};
        glGetProgramResourceiv(program, GL_UNIFORM, static_cast<GLuint>(u), 3, properties, 3,
                               nullptr, values);
        const std::optional<BindingKind> kind = opaqueKind(static_cast<GLenum>(values[0]));
        if (!kind || values[1] < 0 || values[2] != -1)
            continue;
        std::string name = resourceName(program, GL_UNIFORM, static_cast<GLuint>(u));
        if (const std::size_t bracket = name.find('['); bracket != std::string::npos)
            name.resize(bracket); // an array: its first element's unit is the declared slot
        GLint unit = -1;
        glGetUniformiv(program, values[1], &unit);
        slots.push_back({name, *kind, static_cast<unsigned>(unit)});
    }
    for (const auto& [interface, kind] :
         {std::pair{GLenum(GL_UNIFORM_BLOCK), BindingKind::UniformBlock},
          std::pair{GLenum(GL_SHADER_STORAGE_BLOCK), BindingKind::StorageBuffer}}) {
        GLint blocks = 0;
        glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &blocks);
        for (GLint b = 0; b < blocks; ++b) {
            const GLenum property = GL_BUFFER_BINDING;
            GLint binding = -1;
            glGetProgramResourceiv(program, interface, static_cast<GLuint>(b), 1, &property, 1,
                                   nullptr, &binding);
            slots.push_back({resourceName(program, interface, static_cast<GLuint>(b)), kind,
                             static_cast<unsigned>(binding)});
        }
    }
    return slots;
}

std::optional<std::string> checkProgramSlots(GLuint program, std::string_view programName) {
    for (const ProgramSlot& slot : programSlots(program))
        if (auto error = mismatch(programName, slot.kind, slot.glslName, slot.slot))
            return error;
    return std::nullopt;
}

} // namespace snowcap::gpu
