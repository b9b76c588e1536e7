#include "snow/weather_sim.hpp"

#include "gpu/binding_slots.hpp"
#include "snow/snowpack_sim.hpp"

#include <array>
#include <cstdint>

namespace snowcap {

namespace {

// std140 mirror of the Weather block in shaders/weather/weather_block.glsl.
struct WeatherBlock {
    std::uint32_t quanta[4]; // snowfall quanta, degree-day melt quanta, -, -
    float fall[4];           // snowfall density, sun melt per cos, drain fraction, weather dt s
    float sun[4];            // unit towards the sun, the substance's drift threshold m/s
    float wind[4];           // unit direction, wind m/s, gust phase
    float gust[4];           // gust amount, gust wave number 1/cm, region origin cm (x, y)
};
static_assert(sizeof(WeatherBlock) == 80, "std140 drift: see shaders/weather/weather_block.glsl");

void dispatch(const gpu::ShaderProgram& program, int size) {
    glUseProgram(program.id());
    const GLuint groups = static_cast<GLuint>((size + 7) / 8);
    glDispatchCompute(groups, groups, 1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                    GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT);
}

void bindImage(GLuint unit, const gpu::Texture2D& texture, GLenum access) {
    glBindImageTexture(unit, texture.id(), 0, GL_FALSE, 0, access, GL_RGBA32F);
}

} // namespace

std::vector<gpu::ProgramDesc> weatherPrograms() {
    using gpu::computeProgram;
    return {computeProgram("weather.snowfall_melt", "weather/snowfall_melt.comp"),
            computeProgram("weather.drift_flux", "weather/drift_flux.comp"),
            computeProgram("weather.drift_apply", "weather/drift_apply.comp"),
            computeProgram("weather.drift_record_view", "weather/drift_record_view.comp")};
}

std::optional<std::string> WeatherSim::configure(const WeatherSettings& weather,
                                                 const SnowpackSettings& snowpack,
                                                 const WindSettings& wind, glm::vec3 sunDirection,
                                                 int size, double texelCm,
                                                 gpu::ShaderLibrary& shaders) {
    if (!weatherActive(weather)) {
        *this = WeatherSim(); // nothing acts: no pass, no memory
        return std::nullopt;
    }
    auto loaded = shaders.loadAll(weatherPrograms());
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const auto& programs = std::get<std::vector<gpu::ShaderProgram*>>(loaded);
    const bool fresh = !active() || size != size_;
    if (fresh) {
        flux_ = gpu::Buffer(static_cast<std::size_t>(size) * size * 2 * sizeof(std::uint32_t),
                            nullptr, "weather.drift_flux");
        totals_ = gpu::Buffer(4 * sizeof(std::uint32_t), nullptr, "weather.totals");
        block_ = gpu::Buffer(sizeof(WeatherBlock), nullptr, "weather.block");
        record_ = gpu::Buffer(static_cast<std::size_t>(size) * size * sizeof(std::int32_t), nullptr,
                              "weather.drift_record");
        recordView_ = {};
    }
    snowfallMelt_ = programs[0];
    driftFlux_ = programs[1];
    driftApply_ = programs[2];
    recordViewProgram_ = programs[3];
    weather_ = weather;
    snowpack_ = snowpack;
    wind_ = wind;
    sunDirection_ = sunDirection;
    texelCm_ = texelCm;
    size_ = size;
    if (fresh)
        reset();
    else
        clock_.configure(weather, snowpack, wind, sunDirection);
    return std::nullopt;
}

void WeatherSim::reset() {
    clock_ = WeatherClock(weather_, snowpack_, wind_, sunDirection_);
    if (!active())
        return;
    const GLuint zero = 0;
    glClearNamedBufferData(totals_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glClearNamedBufferData(flux_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glClearNamedBufferData(record_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    recordViewStale_ = true;
}

void WeatherSim::writeBlock(const WeatherTick& tick, glm::vec2 originCm) {
    WeatherBlock block{};
    block.quanta[0] = tick.snowfallQuanta;
    block.quanta[1] = tick.meltQuanta;
    block.fall[0] = tick.snowfallDensity;
    block.fall[1] = tick.sunMeltPerCos;
    block.fall[2] = tick.drainFraction;
    block.fall[3] = tick.weatherDtS;
    block.sun[0] = tick.sunDirection.x;
    block.sun[1] = tick.sunDirection.y;
    block.sun[2] = tick.sunDirection.z;
    block.sun[3] = tick.driftThresholdMS;
    block.wind[0] = tick.windDirection.x;
    block.wind[1] = tick.windDirection.y;
    block.wind[2] = tick.windMS;
    block.wind[3] = tick.gustPhase;
    block.gust[0] = tick.gustAmount;
    block.gust[1] = tick.gustWaveNumber;
    block.gust[2] = originCm.x;
    block.gust[3] = originCm.y;
    block_.update(0, sizeof(block), &block);
}

void WeatherSim::step(SnowpackSim& snowpack, double dtSeconds) {
    if (!active() || !snowpack.allocated())
        return;
    const std::vector<WeatherTick> ticks = clock_.advance(dtSeconds);
    if (ticks.empty())
        return;
    const Region& region = snowpack.region();
    const glm::vec2 origin(region.centreCm - 0.5 * region.widthCm);
    namespace slot = gpu::slot;
    glBindBufferBase(GL_UNIFORM_BUFFER, slot::kSnowpack, snowpack.block().id());
    glBindBufferBase(GL_UNIFORM_BUFFER, slot::kWeather, block_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kPloughInside, snowpack.insideFlags().id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kDriftFlux, flux_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kWeatherTotals, totals_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kDriftRecord, record_.id());
    for (const WeatherTick& tick : ticks) {
        writeBlock(tick, origin);
        // Every texel is written into the other half: it is the state when no wind blows, and
        // the scratch the drift reads when it does.
        bindImage(slot::kSnowpackPrevious, snowpack.state(), GL_READ_ONLY);
        bindImage(slot::kSnowpackNext, snowpack.otherHalf(), GL_WRITE_ONLY);
        dispatch(*snowfallMelt_, size_);
        if (tick.windMS > 0.0f) {
            bindImage(slot::kSnowpackPrevious, snowpack.otherHalf(), GL_READ_ONLY);
            dispatch(*driftFlux_, size_);
            bindImage(slot::kSnowpackNext, snowpack.state(), GL_WRITE_ONLY);
            dispatch(*driftApply_, size_);
            recordViewStale_ = true;
        } else {
            snowpack.swapHalves();
        }
        snowpack.weathered(tick); // the undisturbed column, and a world store, get it too
    }
    // Every texel may have changed: the snowpack's next slump iteration runs on every tile
    // (its active tiles, snow/snowpack_sim.hpp).
    snowpack.touchAllTiles();
}

namespace {

double totalKg(const gpu::Buffer& totals, int first, double texelCm) {
    if (!totals.id())
        return 0.0;
    std::array<std::uint32_t, 4> counts{};
    glGetNamedBufferSubData(totals.id(), 0, sizeof(counts), counts.data());
    const double quanta = static_cast<double>((std::uint64_t(counts[first + 1]) << 32) |
                                              std::uint64_t(counts[first]));
    const double areaM2 = (texelCm * 0.01) * (texelCm * 0.01);
    return quanta * static_cast<double>(kWeatherQuantum) * areaM2;
}

} // namespace

double WeatherSim::massInKg() const {
    return totalKg(totals_, 0, texelCm_);
}
double WeatherSim::massOutKg() const {
    return totalKg(totals_, 2, texelCm_);
}

std::vector<std::int32_t> WeatherSim::readDriftRecord() const {
    std::vector<std::int32_t> record(active() ? static_cast<std::size_t>(size_) * size_ : 0);
    if (!record.empty())
        glGetNamedBufferSubData(record_.id(), 0, static_cast<GLsizeiptr>(record_.bytes()),
                                record.data());
    return record;
}

const gpu::Texture2D* WeatherSim::driftRecordKgM2(const SnowpackSim& snowpack) {
    if (!active())
        return nullptr;
    if (recordView_.width() != size_) {
        recordView_ = gpu::Texture2D(size_, size_, gpu::TextureFormat::R32F, "weather.drift_view");
        recordViewStale_ = true;
    }
    if (!recordView_.id())
        return nullptr;
    if (recordViewStale_) {
        namespace slot = gpu::slot;
        glBindBufferBase(GL_UNIFORM_BUFFER, slot::kSnowpack, snowpack.block().id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kDriftRecord, record_.id());
        glBindImageTexture(slot::kDriftRecordView, recordView_.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                           GL_R32F);
        glUseProgram(recordViewProgram_->id());
        const GLuint groups = static_cast<GLuint>((size_ + 7) / 8);
        glDispatchCompute(groups, groups, 1);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        recordViewStale_ = false;
    }
    return &recordView_;
}

std::size_t WeatherSim::bytes() const {
    return active() ? flux_.bytes() + totals_.bytes() + record_.bytes() + recordView_.bytes() : 0;
}

} // namespace snowcap
