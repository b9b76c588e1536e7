#include "snow/weather_sim.hpp"

#include "gpu/binding_slots.hpp"
#include "gpu/frame_graph.hpp"
#include "gpu/pass_state.hpp"
#include "snow/snowpack_sim.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>
#include <memory>

namespace snowcap {

namespace {

// std140 mirror of the Weather block in shaders/weather/weather_block.glsl: five vec4s (the
// first a uvec4), each member named for what it holds.
struct WeatherBlock {
    // uvec4 quanta
    std::uint32_t snowfallQuanta, meltQuanta, quantaUnused0, quantaUnused1;
    // vec4 fall
    float snowfallDensity, sunMeltPerCos, drainFraction, weatherDtS;
    // vec4 sun
    float sunX, sunY, sunZ, driftThresholdMS;
    // vec4 wind
    float windX, windY, windMS, gustPhase;
    // vec4 gust
    float gustAmount, gustWaveNumber, originXCm, originYCm;
};
static_assert(offsetof(WeatherBlock, snowfallDensity) == 16 && offsetof(WeatherBlock, sunX) == 32 &&
                  offsetof(WeatherBlock, windX) == 48 && offsetof(WeatherBlock, gustAmount) == 64,
              "std140 drift: each vec4 of the Weather block starts on 16 bytes");
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
    // One snowfall_melt program a sky, its terms as defines and in its name; over [terrain]
    // TERRAIN comes first among the defines and last in the name.
    const auto skyProgram = [&drawn](int sky, bool terrain) {
        gpu::Defines defines;
        if (terrain)
            defines.emplace_back("TERRAIN", "1");
        std::string name = "weather.snowfall_melt";
        for (auto [bit, define] :
             {std::pair{kSnowfall, "SNOWFALL"}, std::pair{kMelt, "MELT"}, std::pair{kSun, "SUN"}})
            if (sky & bit) {
                defines.emplace_back(define, "1");
                name += std::string(".") + define;
            }
        return drawn(terrain ? name + ".TERRAIN" : name, "weather/snowfall_melt.frag", defines);
    };
    for (int sky = 0; sky < 8; ++sky)
        if (validSky(sky))
            programs.push_back(skyProgram(sky, false));
    programs.push_back(drawn("weather.drift_flux", "weather/drift_flux.frag", {}));
    programs.push_back(drawn("weather.drift_flux.OWN_THRESHOLD", "weather/drift_flux.frag",
                             {{"OWN_THRESHOLD", "1"}}));
    programs.push_back(drawn("weather.drift_apply", "weather/drift_apply.frag", {}));
    programs.push_back(computeProgram("weather.totals", "weather/weather_totals.comp"));
    programs.push_back(
        computeProgram("weather.drift_record_view", "weather/drift_record_view.comp"));
    // Over [terrain]: the sunny skies again, their normal on the ground (TERRAIN), and the
    // drift flux's two with the ground's slope and curvature in the wind's weighting.
    for (int sky = 0; sky < 8; ++sky)
        if (validSky(sky) && (sky & kSun))
            programs.push_back(skyProgram(sky, true));
    programs.push_back(
        drawn("weather.drift_flux.TERRAIN", "weather/drift_flux.frag", {{"TERRAIN", "1"}}));
    programs.push_back(drawn("weather.drift_flux.OWN_THRESHOLD.TERRAIN", "weather/drift_flux.frag",
                             {{"TERRAIN", "1"}, {"OWN_THRESHOLD", "1"}}));
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
    next += 5;
    for (int sky = 0; sky < 8; ++sky)
        snowfallMeltTerrain_[sky] = validSky(sky) && (sky & kSun) ? programs[next++] : nullptr;
    driftFluxTerrain_ = {programs[next], programs[next + 1]};
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
    block.snowfallQuanta = tick.snowfallQuanta;
    block.meltQuanta = tick.meltQuanta;
    block.snowfallDensity = tick.snowfallDensity;
    block.sunMeltPerCos = tick.sunMeltPerCos;
    block.drainFraction = tick.drainFraction;
    block.weatherDtS = tick.weatherDtS;
    block.sunX = tick.sunDirection.x;
    block.sunY = tick.sunDirection.y;
    block.sunZ = tick.sunDirection.z;
    block.driftThresholdMS = tick.driftThresholdMS;
    block.windX = tick.windDirection.x;
    block.windY = tick.windDirection.y;
    block.windMS = tick.windMS;
    block.gustPhase = tick.gustPhase;
    block.gustAmount = tick.gustAmount;
    block.gustWaveNumber = tick.gustWaveNumber;
    block.originXCm = originCm.x;
    block.originYCm = originCm.y;
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

// What every pass of a step declares and shares: the resources, the timer scope (`name`) and
// the step's ticks (advanced by the first tick's block pass, read by each tick's).
struct WeatherSim::StepResources {
    std::string name;
    std::size_t ticks = 0;
    double dtSeconds = 0.0;
    SnowpackSim::Resources pack;
    gpu::TextureId crossed, flux, record;
    gpu::BufferId block, totals;
    std::shared_ptr<std::vector<WeatherTick>> stepTicks;
};

void WeatherSim::addPasses(gpu::FrameGraph& graph, SnowpackSim& snowpack, const std::string& name,
                           const std::string& snowpackName, double dtSeconds) {
    if (!active() || !snowpack.allocated())
        return;
    // The ticks that fall in this step, from a copy of the clock: planning changes nothing.
    WeatherClock clock = clock_;
    const std::size_t ticks = clock.advance(dtSeconds).size();
    if (ticks == 0) {
        graph.addPass(
            name + ".clock", [&](gpu::PassBuilder& pass) { pass.note("no GL: the clock steps"); },
            [this, dtSeconds] { clock_.advance(dtSeconds); });
        return;
    }
    StepResources step{name, ticks, dtSeconds, snowpack.resources(graph, snowpackName)};
    const auto texture = [&](const char* part, GLenum format, std::function<GLuint()> object) {
        return graph.texture({name + "." + part, format, size_, size_, std::move(object)});
    };
    step.crossed = texture("crossed", GL_RG32UI, [this] { return crossed_.id(); });
    step.flux = texture("drift_flux", GL_RG32UI, [this] { return flux_.id(); });
    // The drift record's pair, one resource: drift apply reads one half and writes the other.
    step.record = texture("drift_record", GL_R32I, [this] { return record_[record0_].id(); });
    step.block = graph.buffer({name + ".block", block_.bytes(), [this] {
                                   return block_.id();
                               }});
    step.totals = graph.buffer({name + ".totals", totals_.bytes(), [this] {
                                    return totals_.id();
                                }});
    step.stepTicks = std::make_shared<std::vector<WeatherTick>>();
    for (std::size_t t = 0; t < ticks; ++t)
        addTickPasses(graph, snowpack, step, t);
    // Every texel may have changed: the snowpack's next slump iteration runs on every tile
    // (its active tiles, snow/snowpack_sim.hpp).
    graph.addPass(
        name + ".done", [&](gpu::PassBuilder& pass) { pass.note("no GL: every tile is touched"); },
        [&snowpack] { snowpack.touchAllTiles(); });
}

void WeatherSim::addTickPasses(gpu::FrameGraph& graph, SnowpackSim& snowpack,
                               const StepResources& step, std::size_t t) {
    using gpu::Access;
    using gpu::PassBuilder;
    namespace slot = gpu::slot;
    const SnowpackSim::Resources& pack = step.pack;
    const gpu::TextureId crossed = step.crossed, flux = step.flux, record = step.record;
    const gpu::BufferId block = step.block, totals = step.totals;
    // The snowpack's block and, read-only, its plough buffers (snowpack_block.glsl declares
    // them for every program that includes it): the step's contact flags among them.
    const auto snowpackInputs = [&](PassBuilder& pass) {
        pass.timers({step.name});
        pass.uniform(pack.block, slot::kSnowpack);
        pass.uniform(block, slot::kWeather);
        pass.storage(pack.quanta, slot::kPloughQuanta, gpu::ImageAccess::Read);
        pass.storage(pack.inside, slot::kPloughInside, gpu::ImageAccess::Read);
        pass.storage(pack.received, slot::kPloughReceived, gpu::ImageAccess::Read);
        for (gpu::BufferId buffer : {pack.block, pack.quanta, pack.inside, pack.received})
            pass.history(buffer); // as the snowpack's last step left them
    };
    const auto& fragmentPass = snowpackInputs;
    // Every input is read with texelFetch alone: sampler 0 on its unit, whatever another pass
    // left there.
    const auto texelFetchOnly = [] {
        return 0u;
    };
    const auto otherHalf = [&snowpack] {
        return snowpack.otherHalf().id();
    };
    const std::string tick = step.ticks == 1 ? step.name : fmt::format("{}.{}", step.name, t);
    graph.addPass(
        tick + ".block",
        [&](PassBuilder& pass) {
            pass.timers({step.name});
            pass.note(t == 0 ? "no draw: the clock steps, the Weather block is uploaded"
                             : "no draw: the Weather block is uploaded");
            pass.write(block, Access::BufferCopy);
        },
        [this, &snowpack, t, stepTicks = step.stepTicks, dtSeconds = step.dtSeconds] {
            if (t == 0)
                *stepTicks = clock_.advance(dtSeconds);
            const Region& region = snowpack.region();
            writeBlock((*stepTicks)[t], glm::vec2(region.centreCm - 0.5 * region.widthCm));
        });
    // Every texel is written into the other half: it is the state when no wind blows, and
    // the scratch the drift reads when it does.
    graph.addPass(
        tick + ".snowfall_melt",
        [&](PassBuilder& pass) {
            fragmentPass(pass);
            pass.note("fbo: the state's other half and crossed");
            pass.sample(pack.state, slot::kWeatherState, texelFetchOnly);
            if (pack.ground) { // over terrain: the sun's normal stands on the ground
                pass.image(pack.ground, slot::kSnowpackGround, gpu::ImageAccess::Read);
                pass.history(pack.ground);
            }
            pass.write(pack.state, Access::Attachment);
            pass.write(crossed, Access::Attachment);
        },
        [this, &snowpack, t, stepTicks = step.stepTicks, terrain = bool(pack.ground)] {
            const WeatherTick& now = (*stepTicks)[t];
            const int sky = skyOf(now);
            const gpu::ShaderProgram* program = terrain && snowfallMeltTerrain_[sky]
                                                    ? snowfallMeltTerrain_[sky]
                                                    : snowfallMelt_[sky];
            draw(*program, {snowpack.otherHalf().id(), crossed_.id()});
            if (now.windMS <= 0.0f)
                snowpack.swapHalves();
        });
    // The drift, on ticks with wind (decided when the tick runs: the list holds both).
    graph.addPass(
        tick + ".drift_flux",
        [&](PassBuilder& pass) {
            fragmentPass(pass);
            pass.note("fbo: the flux, on a tick with wind");
            // What snowfall and melt left in the other half.
            pass.sample(pack.state, slot::kWeatherState, texelFetchOnly, otherHalf);
            if (pack.windTerrain) { // over terrain: the ground's part of the wind's weighting
                pass.sample(pack.windTerrain, slot::kWindTerrain, texelFetchOnly);
                pass.history(pack.windTerrain);
            }
            pass.write(flux, Access::Attachment);
        },
        [this, &snowpack, t, stepTicks = step.stepTicks, terrain = bool(pack.windTerrain)] {
            const WeatherTick& now = (*stepTicks)[t];
            if (now.windMS <= 0.0f)
                return;
            const int own = now.driftThresholdMS > 0.0f ? 1 : 0;
            draw(terrain ? *driftFluxTerrain_[own] : *driftFlux_[own], {flux_.id()});
        });
    graph.addPass(
        tick + ".drift_apply",
        [&](PassBuilder& pass) {
            fragmentPass(pass);
            pass.note("fbo: the state and the record's other half, on a tick with wind");
            pass.sample(pack.state, slot::kWeatherState, texelFetchOnly, otherHalf);
            pass.sample(flux, slot::kDriftFlux, texelFetchOnly);
            pass.sample(record, slot::kDriftRecord, texelFetchOnly);
            pass.write(pack.state, Access::Attachment);
            pass.write(record, Access::Attachment);
            pass.history(record);
        },
        [this, &snowpack, t, stepTicks = step.stepTicks] {
            const WeatherTick& now = (*stepTicks)[t];
            if (now.windMS <= 0.0f)
                return;
            draw(*driftApply_, {snowpack.state().id(), record_[1 - record0_].id()});
            record0_ = 1 - record0_;
            recordViewStale_ = true;
        });
    graph.addPass(
        tick + ".totals",
        [&](PassBuilder& pass) {
            snowpackInputs(pass);
            pass.note("compute: the budget's totals");
            pass.compute(totalsProgram_->id());
            pass.sample(crossed, slot::kWeatherCrossed, texelFetchOnly);
            pass.sample(flux, slot::kDriftFlux, texelFetchOnly);
            pass.storage(totals, slot::kWeatherTotals, gpu::ImageAccess::ReadWrite);
            pass.history(totals);
            pass.history(flux); // a tick without wind reads the last drift's (zero) flux
        },
        [this, &snowpack, t, stepTicks = step.stepTicks] {
            gpu::dispatchCompute(static_cast<GLuint>((size_ + 63) / 64));
            snowpack.weathered((*stepTicks)[t]); // the undisturbed column, a store: too
        });
}

void WeatherSim::step(SnowpackSim& snowpack, double dtSeconds) {
    gpu::FrameGraph graph;
    addPasses(graph, snowpack, "weather", "snowpack", dtSeconds);
    gpu::runGraph(graph);
}

std::size_t WeatherSim::bytes() const {
    // crossed and the flux 8 bytes a texel, the record's pair 4 + 4.
    const std::size_t texels = static_cast<std::size_t>(size_) * size_;
    return active() ? texels * (8 + 8 + 4 + 4) + totals_.bytes() + recordView_.bytes() : 0;
}

} // namespace snowcap
