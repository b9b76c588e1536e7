#include "snow/weather_sim.hpp"

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
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

// A texture of integers for the passes to render into and read with texelFetch.
gpu::UniqueName<gpu::ObjectKind::Texture> integerTexture(int size, GLenum format,
                                                         const char* name) {
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    glTextureStorage2D(id, 1, format, size, size);
    glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST); // complete with one level
    glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gpu::label(GL_TEXTURE, id, name);
    return gpu::UniqueName<gpu::ObjectKind::Texture>(id);
}

void clearInteger(GLuint texture, GLenum format) {
    const GLuint zero[4] = {0, 0, 0, 0};
    glClearTexImage(texture, 0, format, GL_UNSIGNED_INT, zero);
}

// The snowfall + melt programs: which sky a tick's is (a bit each of kSnowfall, kMelt, kSun).
constexpr int kSnowfall = 1, kMelt = 2, kSun = 4;
constexpr bool validSky(int sky) {
    return !(sky & kSun) || (sky & kMelt);
}

int skyOf(const WeatherTick& tick) {
    const bool sun = tick.sunMeltPerCos > 0.0f;
    return (tick.snowfallQuanta != 0 ? kSnowfall : 0) | (tick.meltQuanta != 0 || sun ? kMelt : 0) |
           (sun ? kSun : 0);
}

} // namespace

// In order: the snowfall + melt programs of every valid sky, the drift flux's two, the apply,
// the totals and the record's view.
std::vector<gpu::ProgramDesc> weatherPrograms() {
    using gpu::computeProgram;
    const auto drawn = [](std::string name, std::string fragment, gpu::Defines defines) {
        return gpu::ProgramDesc{std::move(name),
                                {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                 {GL_FRAGMENT_SHADER, std::move(fragment)}},
                                std::move(defines)};
    };
    std::vector<gpu::ProgramDesc> programs;
    for (int sky = 0; sky < 8; ++sky) {
        if (!validSky(sky))
            continue;
        gpu::Defines defines;
        std::string name = "weather.snowfall_melt";
        for (auto [bit, define] :
             {std::pair{kSnowfall, "SNOWFALL"}, std::pair{kMelt, "MELT"}, std::pair{kSun, "SUN"}})
            if (sky & bit) {
                defines.emplace_back(define, "1");
                name += std::string(".") + define;
            }
        programs.push_back(drawn(name, "weather/snowfall_melt.frag", defines));
    }
    programs.push_back(drawn("weather.drift_flux", "weather/drift_flux.frag", {}));
    programs.push_back(drawn("weather.drift_flux.OWN_THRESHOLD", "weather/drift_flux.frag",
                             {{"OWN_THRESHOLD", "1"}}));
    programs.push_back(drawn("weather.drift_apply", "weather/drift_apply.frag", {}));
    programs.push_back(computeProgram("weather.totals", "weather/weather_totals.comp"));
    programs.push_back(
        computeProgram("weather.drift_record_view", "weather/drift_record_view.comp"));
    return programs;
}

std::optional<std::string> WeatherSim::configure(const WeatherSettings& weather,
                                                 const SnowpackSettings& snowpack,
                                                 const WindSettings& wind, glm::vec3 sunDirection,
                                                 int size, double texelCm,
                                                 gpu::ShaderLibrary& shaders) {
    if (!weatherActive(weather)) {
        // Nothing acts: no pass, no memory. The sky and its clock stay (a live edit keeps the
        // time), for what reads the sky without acting on the snow: a cold one freezes mud.
        WeatherClock clock = std::move(clock_);
        clock.configure(weather, snowpack, wind, sunDirection);
        *this = WeatherSim();
        clock_ = std::move(clock);
        remember(weather, snowpack, wind, sunDirection, texelCm);
        return std::nullopt;
    }
    auto loaded = shaders.loadAll(weatherPrograms());
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const auto& programs = std::get<std::vector<gpu::ShaderProgram*>>(loaded);
    const bool fresh = !active() || size != size_;
    if (fresh) {
        crossed_ = integerTexture(size, GL_RG32UI, "weather.crossed");
        flux_ = integerTexture(size, GL_RG32UI, "weather.drift_flux");
        record_[0] = integerTexture(size, GL_R32I, "weather.drift_record.0");
        record_[1] = integerTexture(size, GL_R32I, "weather.drift_record.1");
        record0_ = 0;
        GLuint target = 0;
        glCreateFramebuffers(1, &target);
        target_ = gpu::UniqueName<gpu::ObjectKind::Framebuffer>(target);
        emptyArray_ = gpu::VertexArray("weather.empty");
        totals_ = gpu::Buffer(4 * sizeof(std::uint32_t), nullptr, "weather.totals");
        block_ = gpu::Buffer(sizeof(WeatherBlock), nullptr, "weather.block");
        recordView_ = {};
    }
    std::size_t next = 0;
    for (int sky = 0; sky < 8; ++sky)
        snowfallMelt_[sky] = validSky(sky) ? programs[next++] : nullptr;
    driftFlux_ = {programs[next], programs[next + 1]};
    driftApply_ = programs[next + 2];
    totalsProgram_ = programs[next + 3];
    recordViewProgram_ = programs[next + 4];
    remember(weather, snowpack, wind, sunDirection, texelCm);
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
    clearInteger(crossed_.id(), GL_RG_INTEGER);
    clearInteger(flux_.id(), GL_RG_INTEGER);
    clearInteger(record_[0].id(), GL_RED_INTEGER);
    clearInteger(record_[1].id(), GL_RED_INTEGER);
    recordViewStale_ = true;
}

void WeatherSim::remember(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                          const WindSettings& wind, glm::vec3 sunDirection, double texelCm) {
    weather_ = weather;
    snowpack_ = snowpack;
    wind_ = wind;
    sunDirection_ = sunDirection;
    texelCm_ = texelCm;
}

void WeatherSim::idle(double dtSeconds) {
    if (!active() && weatherGiven(weather_))
        clock_.advance(dtSeconds); // the ticks are nobody's: nothing acts
}

void WeatherSim::shift(glm::ivec2 offset) {
    if (!active() || offset == glm::ivec2(0))
        return;
    // As the snowpack's state moves (SnowpackSim::shift): texel p takes old texel p + offset;
    // what enters has no record (nothing drifted there while this window saw it).
    const int n = size_;
    const glm::ivec2 lo = glm::clamp(offset, glm::ivec2(0), glm::ivec2(n));
    const glm::ivec2 kept = glm::clamp(offset + n, glm::ivec2(0), glm::ivec2(n)) - lo;
    const GLuint next = record_[1 - record0_].id();
    clearInteger(next, GL_RED_INTEGER);
    if (kept.x > 0 && kept.y > 0)
        glCopyImageSubData(record_[record0_].id(), GL_TEXTURE_2D, 0, lo.x, lo.y, 0, next,
                           GL_TEXTURE_2D, 0, lo.x - offset.x, lo.y - offset.y, 0, kept.x, kept.y,
                           1);
    record0_ = 1 - record0_;
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

void WeatherSim::draw(const gpu::ShaderProgram& program, std::initializer_list<GLuint> colour) {
    const GLuint target = target_.id();
    std::array<GLenum, 2> buffers{};
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        const GLuint texture = i < colour.size() ? colour.begin()[i] : 0;
        glNamedFramebufferTexture(target, GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i), texture,
                                  0);
        buffers[i] = texture ? GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i) : GL_NONE;
    }
    glNamedFramebufferDrawBuffers(target, static_cast<GLsizei>(buffers.size()), buffers.data());
    gpu::PassState pass;
    pass.framebuffer = target;
    pass.viewport = {0, 0, size_, size_};
    pass.program = program.id();
    gpu::beginPass(pass);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
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
    // The snowpack's passes wrote its state and contact flags from compute shaders.
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_UNIFORM_BUFFER, slot::kSnowpack, snowpack.block().id());
    glBindBufferBase(GL_UNIFORM_BUFFER, slot::kWeather, block_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kPloughInside, snowpack.insideFlags().id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, slot::kWeatherTotals, totals_.id());
    for (GLuint unit :
         {slot::kWeatherState, slot::kDriftFlux, slot::kDriftRecord, slot::kWeatherCrossed})
        glBindSampler(unit, 0); // texelFetch alone: no sampler another pass left on the unit
    glBindTextureUnit(slot::kDriftFlux, flux_.id());
    glBindTextureUnit(slot::kWeatherCrossed, crossed_.id());
    const GLuint totalsGroups = static_cast<GLuint>((size_ + 63) / 64);
    for (const WeatherTick& tick : ticks) {
        writeBlock(tick, origin);
        // Every texel is written into the other half: it is the state when no wind blows, and
        // the scratch the drift reads when it does.
        glBindTextureUnit(slot::kWeatherState, snowpack.state().id());
        draw(*snowfallMelt_[skyOf(tick)], {snowpack.otherHalf().id(), crossed_.id()});
        if (tick.windMS > 0.0f) {
            glBindTextureUnit(slot::kWeatherState, snowpack.otherHalf().id());
            draw(*driftFlux_[tick.driftThresholdMS > 0.0f ? 1 : 0], {flux_.id()});
            glBindTextureUnit(slot::kDriftRecord, record_[record0_].id());
            draw(*driftApply_, {snowpack.state().id(), record_[1 - record0_].id()});
            record0_ = 1 - record0_;
            recordViewStale_ = true;
        } else {
            snowpack.swapHalves();
        }
        glUseProgram(totalsProgram_->id());
        glDispatchCompute(totalsGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        snowpack.weathered(tick); // the undisturbed column, and a world store, get it too
    }
    // Later passes read the state as an image.
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
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
        glGetTextureImage(record_[record0_].id(), 0, GL_RED_INTEGER, GL_INT,
                          static_cast<GLsizei>(record.size() * sizeof(std::int32_t)),
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
        glBindTextureUnit(slot::kDriftRecord, record_[record0_].id());
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
    // crossed and the flux 8 bytes a texel, the record's pair 4 + 4.
    const std::size_t texels = static_cast<std::size_t>(size_) * size_;
    return active() ? texels * (8 + 8 + 4 + 4) + totals_.bytes() + recordView_.bytes() : 0;
}

} // namespace snowcap
