#include "snow/snowpack_sim.hpp"

#include <cmath>

namespace snowcap {

namespace {

// std140 mirror of the Snowpack block in shaders/snowpack/snowpack_block.glsl.
struct SnowpackBlock {
    float capture[4]; // far cm, camera height above the ground cm, texel cm, size
    float density[4]; // initial, max, repose fresh deg, repose dense deg
    float settle[4];  // settling dt s this step (0: none), temperature C, plough reach,
                      // initial depth cm
};
static_assert(sizeof(SnowpackBlock) == 48,
              "std140 drift: see shaders/snowpack/snowpack_block.glsl");
constexpr GLuint kCaptureUnit = 0;

gpu::ProgramDesc computeProgram(const char* name, const char* file) {
    return {name, {{GL_COMPUTE_SHADER, file}}, {}};
}

} // namespace

std::vector<gpu::ProgramDesc> snowpackPrograms() {
    return {computeProgram("snowpack.compact", "snowpack/compact.comp"),
            computeProgram("snowpack.plough_scatter", "snowpack/plough_scatter.comp"),
            computeProgram("snowpack.plough_resolve", "snowpack/plough_resolve.comp"),
            computeProgram("snowpack.slump", "snowpack/slump.comp")};
}

std::optional<std::string> SnowpackSim::configure(const SnowpackSettings& settings,
                                                  const Region& region, double captureZCm,
                                                  double captureFarCm,
                                                  gpu::ShaderLibrary& shaders) {
    std::array<const gpu::ShaderProgram*, 4> programs{};
    const std::vector<gpu::ProgramDesc> descs = snowpackPrograms();
    for (std::size_t i = 0; i < descs.size(); ++i) {
        auto loaded = shaders.load(descs[i]);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        programs[i] = std::get<gpu::ShaderProgram*>(loaded);
    }
    const SnowpackConstants constants =
        snowpackConstants(settings, captureZCm, captureFarCm, region.texelCm());
    const bool refill = !allocated() || region.resolution != region_.resolution ||
                        region.widthCm != region_.widthCm ||
                        constants.initialDepthCm != constants_.initialDepthCm ||
                        constants.initialDensity != constants_.initialDensity ||
                        constants.cameraAboveGroundCm != constants_.cameraAboveGroundCm;
    if (refill) {
        const int n = region.resolution;
        std::array<gpu::Texture2D, 2> states{
            gpu::Texture2D(n, n, gpu::TextureFormat::RGBA32F, "snowpack.state.0"),
            gpu::Texture2D(n, n, gpu::TextureFormat::RGBA32F, "snowpack.state.1")};
        for (const auto& state : states)
            if (!state.id())
                return state.allocationError();
        const std::size_t bytes = static_cast<std::size_t>(n) * n * sizeof(std::uint32_t);
        states_ = std::move(states);
        quanta_ = gpu::Buffer(bytes, nullptr, "snowpack.quanta");
        inside_ = gpu::Buffer(bytes, nullptr, "snowpack.inside");
        received_ = gpu::Buffer(bytes, nullptr, "snowpack.received");
    }
    if (!block_.id())
        block_ = gpu::Buffer(sizeof(SnowpackBlock), nullptr, "snowpack.block");
    compact_ = programs[0];
    scatter_ = programs[1];
    resolve_ = programs[2];
    slump_ = programs[3];
    settings_ = settings;
    constants_ = constants;
    region_ = region;
    writeBlock(0.0f); // the surface reads it before the first step
    if (refill)
        reset();
    else
        clock_ = SnowpackClock(settings); // the tick rates apply from now; time restarts at 0
    return std::nullopt;
}

void SnowpackSim::reset() {
    if (!allocated())
        return;
    const float column[4] = {constants_.initialDepthCm,
                             columnMass(constants_.initialDepthCm, constants_.initialDensity), 0.0f,
                             0.0f};
    for (auto& state : states_)
        glClearTexImage(state.id(), 0, GL_RGBA, GL_FLOAT, column);
    const GLuint zero = 0;
    for (const gpu::Buffer* buffer : {&quanta_, &inside_, &received_})
        glClearNamedBufferData(buffer->id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    current_ = 0;
    clock_ = SnowpackClock(settings_);
    const double areaM2 = std::pow(region_.texelCm() * 0.01, 2.0);
    massStartKg_ =
        static_cast<double>(columnMass(constants_.initialDepthCm, constants_.initialDensity)) *
        areaM2 * region_.resolution * region_.resolution;
    weather_.reset(); // the weather hook: its clock and totals start again with the state
}

void SnowpackSim::dispatch(const gpu::ShaderProgram& program) const {
    glUseProgram(program.id());
    const GLuint groups = static_cast<GLuint>((region_.resolution + 7) / 8);
    glDispatchCompute(groups, groups, 1);
    // The next pass reads what this one wrote, through images, buffers or texture fetches (the
    // surface), and a read-back (stats, outputs) may follow.
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                    GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
}

void SnowpackSim::writeBlock(float settleDtS) {
    SnowpackBlock block{};
    block.capture[0] = constants_.captureFarCm;
    block.capture[1] = constants_.cameraAboveGroundCm;
    block.capture[2] = constants_.texelCm;
    block.capture[3] = static_cast<float>(region_.resolution);
    block.density[0] = constants_.initialDensity;
    block.density[1] = constants_.maxDensity;
    block.density[2] = constants_.reposeFreshDeg;
    block.density[3] = constants_.reposeDenseDeg;
    block.settle[0] = settleDtS;
    block.settle[1] = static_cast<float>(settings_.temperatureC);
    block.settle[2] = static_cast<float>(constants_.ploughReachTexels);
    block.settle[3] = constants_.initialDepthCm;
    block_.update(0, sizeof(block), &block);
}

void SnowpackSim::step(const gpu::Texture2D& captureDepth, double dtSeconds) {
    if (!allocated())
        return;
    const SnowpackStep step = clock_.advance(dtSeconds);
    // As SnowpackReference::settleAndCompact computes it.
    writeBlock(static_cast<float>(step.settleTicks * settings_.settleIntervalS *
                                  settings_.settleTimeScale));
    glBindBufferBase(GL_UNIFORM_BUFFER, kBlockBinding, block_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, quanta_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, inside_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, received_.id());

    const auto bindImage = [](GLuint unit, const gpu::Texture2D& texture, GLenum access) {
        glBindImageTexture(unit, texture.id(), 0, GL_FALSE, 0, access, GL_RGBA32F);
    };
    // Settle + compact: current -> other.
    glBindTextureUnit(kCaptureUnit, captureDepth.id());
    glBindSampler(kCaptureUnit, 0);
    bindImage(0, states_[current_], GL_READ_ONLY);
    bindImage(1, states_[1 - current_], GL_WRITE_ONLY);
    dispatch(*compact_);
    current_ = 1 - current_;
    dispatch(*scatter_);
    bindImage(0, states_[current_], GL_READ_WRITE);
    dispatch(*resolve_);
    for (int i = 0; i < step.slumpIterations; ++i) {
        bindImage(0, states_[current_], GL_READ_ONLY);
        bindImage(1, states_[1 - current_], GL_WRITE_ONLY);
        dispatch(*slump_);
        current_ = 1 - current_;
    }
}

std::vector<SnowColumn> SnowpackSim::readBack() const {
    if (!allocated())
        return {};
    return columnsFromRgba(state().readFloats());
}

SnowpackBudget SnowpackSim::budget() const {
    return snowpackBudget(readBack(), region_.texelCm(), constants_.initialDensity);
}

std::size_t SnowpackSim::bytes() const {
    if (!allocated())
        return 0;
    return states_[0].bytes() + states_[1].bytes() + quanta_.bytes() + inside_.bytes() +
           received_.bytes() + weather_.bytes(); // the weather hook: 0 without [weather]
}

} // namespace snowcap
