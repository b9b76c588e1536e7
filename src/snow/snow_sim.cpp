#include "snow/snow_sim.hpp"

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cstdint>

namespace snowcap {

namespace {

// std140 mirror of the Accumulate block in shaders/snow/accumulate.frag.
struct AccumulateOutputGpu {
    float amounts[4];      // contactScale, stepFactor, refillStep, zeroFloor
    float tags[4];         // ageStepS, rtBlurDistance (uv), -, -
    std::uint32_t mode[4]; // max, refill linear, half safe, -
};
struct AccumulateBlock {
    float capture[4]; // far cm, offset cm, 1 / capture distance, resolution
    AccumulateOutputGpu outputs[kMaxSims];
};
static_assert(sizeof(AccumulateOutputGpu) == 48 && sizeof(AccumulateBlock) == 16 + 48 * kMaxSims,
              "std140 drift: see shaders/snow/accumulate.frag");

// The most sims that could share a pass with sim `index`: those of its resolution (the width,
// camera and far plane are the same for all) and its format (one format a pass).
int couldShare(const Settings& settings, int index) {
    const int resolution = simRegion(settings, index).resolution;
    int count = 0;
    for (int j = 0; j < static_cast<int>(settings.sims.size()) && j < kMaxSims; ++j)
        count += simRegion(settings, j).resolution == resolution &&
                 settings.sims[j].format == settings.sims[index].format;
    return std::max(count, 1);
}

// `outputs` sims of `sim`'s format; a lone sim's modes are compiled in (the variants a pass of
// one sim had before sims shared one).
gpu::ProgramDesc accumulateProgramFor(int outputs, const SimSettings& sim) {
    const auto flag = [](bool on) {
        return on ? "1" : "0";
    };
    gpu::ProgramDesc desc{"accumulate",
                          {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                           {GL_FRAGMENT_SHADER, "snow/accumulate.frag"}},
                          {{"OUTPUTS", std::to_string(std::clamp(outputs, 1, kMaxSims))},
                           {"FORMAT_RGBA", flag(sim.format == BufferFormat::RGBA16F)},
                           {"FIXED_MODE", flag(outputs == 1)}}};
    if (outputs == 1) {
        desc.defines.push_back({"FIXED_MAX", flag(sim.accumulate == AccumulateMode::Max)});
        desc.defines.push_back({"FIXED_LINEAR", flag(sim.refill == RefillMode::Linear)});
        desc.defines.push_back({"FIXED_HALF_SAFE", flag(sim.halfSafe)});
    }
    return desc;
}

} // namespace

gpu::ProgramDesc accumulateProgram(int outputs) {
    return accumulateProgramFor(outputs, SimSettings{});
}

std::vector<gpu::ProgramDesc> accumulatePrograms(const Settings& settings) {
    std::vector<gpu::ProgramDesc> programs;
    for (int i = 0; i < static_cast<int>(settings.sims.size()) && i < kMaxSims; ++i)
        for (int outputs = 1; outputs <= couldShare(settings, i); ++outputs)
            programs.push_back(accumulateProgramFor(outputs, settings.sims[i]));
    return programs; // repeats are loaded once (the library keeps one program per variant)
}

gpu::ProgramDesc blurPrepassProgram() {
    return {"blur_prepass",
            {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
             {GL_FRAGMENT_SHADER, "snow/blur_prepass.frag"}},
            {}};
}

gpu::ProgramDesc blurSeparableProgram(int axis, bool slope) {
    return {std::string(axis == 0 ? "blur_separable.x" : "blur_separable.y") +
                (slope ? ".slope" : ""),
            {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
             {GL_FRAGMENT_SHADER, "snow/blur_separable.frag"}},
            {{"AXIS", axis == 0 ? "0" : "1"}, {"WITH_SLOPE", slope ? "1" : "0"}}};
}

SnowSim::SnowSim(std::string name, int index) : name_(std::move(name)), index_(index) {}

std::optional<std::string> SnowSim::configure(const Settings& settings, const Region& region,
                                              gpu::ShaderLibrary& shaders) {
    const SimSettings& sim = settings.sims[index_];
    programs_ = {};
    for (int outputs = 1; outputs <= couldShare(settings, index_); ++outputs) {
        auto loaded = shaders.load(accumulateProgramFor(outputs, sim));
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        programs_[outputs - 1] = std::get<gpu::ShaderProgram*>(loaded);
    }
    const bool prepass = sim.blur != BlurMode::PerPixel;
    const bool separable = sim.blur == BlurMode::Separable;
    const bool slope = separable && sim.format == BufferFormat::R16F; // blurCarriesSlope()
    if (prepass) {
        auto blur = shaders.load(separable ? blurSeparableProgram(0, slope) : blurPrepassProgram());
        if (auto* error = std::get_if<std::string>(&blur))
            return *error;
        blurProgram_ = std::get<gpu::ShaderProgram*>(blur);
    }
    if (separable) {
        auto blur = shaders.load(blurSeparableProgram(1, slope));
        if (auto* error = std::get_if<std::string>(&blur))
            return *error;
        blurProgramY_ = std::get<gpu::ShaderProgram*>(blur);
    }

    // A new region means the texels stand for other places: reallocate and clear, like UE's
    // Construction Script re-initialising the render targets. (Following a moving guide without
    // losing the trail is the region-follow switch's job, not this one's.)
    const bool reallocate = !buffers_[0].id() || !(region == region_) || sim.format != sim_.format;
    sim_ = sim;
    quality_ = settings.snow.quality;
    region_ = region;
    clock_.configure(AccumulateLaw::of(sim, settings.capture));
    params_ = makeSnowParams(settings, region, index_);
    if (reallocate) {
        for (int i = 0; i < 2; ++i) {
            buffers_[i] = gpu::Texture2D(region.resolution, region.resolution, bufferFormat(),
                                         "sim." + name_ + ".persistent" + std::to_string(i));
            framebuffers_[i] = gpu::Framebuffer(&buffers_[i], nullptr,
                                                "sim." + name_ + ".fbo" + std::to_string(i));
        }
        if (!paramsBuffer_.id())
            paramsBuffer_ =
                gpu::Buffer(sizeof(SnowParamsBlock), &params_, "sim." + name_ + ".params");
        if (!emptyVertexArray_.id())
            emptyVertexArray_ = gpu::VertexArray("fullscreen");
        if (!accumulateBlock_.id())
            accumulateBlock_ =
                gpu::Buffer(sizeof(AccumulateBlock), nullptr, "sim." + name_ + ".accumulate");
        if (!sharedFramebuffer_.id())
            sharedFramebuffer_ = gpu::Framebuffer(nullptr, nullptr, "sim." + name_ + ".shared");
        reset();
    }
    const int blurSide = separable ? separableBlurSize(region.resolution) : region.resolution;
    if (prepass && (blurred_.width() != blurSide || blurred_.format() != blurredFormat())) {
        blurred_ = gpu::Texture2D(blurSide, blurSide, blurredFormat(), "sim." + name_ + ".blurred");
        blurredFramebuffer_ = gpu::Framebuffer(&blurred_, nullptr, "sim." + name_ + ".blurred");
        bilinearBorder_ = gpu::Sampler(GL_LINEAR, GL_CLAMP_TO_BORDER, "sim." + name_ + ".blur");
    } else if (!prepass) {
        blurred_ = {};
        blurredFramebuffer_ = {};
    }
    if (separable && (blurTemp_.width() != blurSide || blurTemp_.format() != blurredFormat())) {
        blurTemp_ =
            gpu::Texture2D(blurSide, blurSide, blurredFormat(), "sim." + name_ + ".blur_temp");
        blurTempFramebuffer_ = gpu::Framebuffer(&blurTemp_, nullptr, "sim." + name_ + ".blur_temp");
    } else if (!separable) {
        blurTemp_ = {};
        blurTempFramebuffer_ = {};
    }
    paramsBuffer_.update(0, sizeof(params_), &params_);
    blurredIsCurrent_ = false; // parameters such as the blur radius may have changed
    return std::nullopt;
}

void SnowSim::reset() {
    for (auto& buffer : buffers_)
        buffer.clear(0.0f);
    if (blurred_.id())
        blurred_.clear(0.0f);
    if (blurTemp_.id())
        blurTemp_.clear(0.0f);
    blurredIsCurrent_ = false;
    clock_.reset();
    current_ = 0;
}

void SnowSim::step(const ContactCapture& capture, double dtSeconds) {
    SnowSim* self = this;
    stepShared({&self, 1}, capture, dtSeconds);
}

std::vector<gpu::PassBinding> SnowSim::accumulateBindings(std::span<SnowSim* const> sims,
                                                          const ContactCapture& capture,
                                                          const std::string& captureName) {
    using gpu::BindingKind;
    const SnowSim* lead = sims.front();
    const ContactCapture* source = &capture;
    std::vector<gpu::PassBinding> bindings = {
        {BindingKind::UniformBlock, gpu::slot::kAccumulate, lead->name_ + ".amounts",
         [lead] {
             return lead->accumulateBlock_.id();
         }},
        {BindingKind::Texture, gpu::slot::kCaptureDepth, captureName,
         [source] {
             return source->depth().id();
         }},
        {BindingKind::Texture, gpu::slot::kCaptureContact, captureName, [source] {
             return source->contact().id();
         }}};
    bindings.front().history = true; // the amounts: uploaded by the pass itself (stepShared)
    for (std::size_t i = 0; i < sims.size(); ++i) {
        const SnowSim* sim = sims[i];
        bindings.push_back({BindingKind::Texture, gpu::slot::kPrevious + unsigned(i),
                            sim->bufferResource(), [sim] {
                                return sim->buffers_[sim->current_].id();
                            }});
    }
    return bindings;
}

void SnowSim::stepShared(std::span<SnowSim* const> sims, const ContactCapture& capture,
                         double dtSeconds, bool inputsBound) {
    if (sims.empty())
        return;
    SnowSim& lead = *sims.front();
    const int outputs = static_cast<int>(sims.size());
    const gpu::ShaderProgram* program = outputs <= kMaxSims ? lead.programs_[outputs - 1] : nullptr;
    const bool oneFormat = std::all_of(sims.begin(), sims.end(), [&](const SnowSim* sim) {
        return sim->sim_.format == lead.sim_.format;
    });
    if (!program || !oneFormat) {
        // More sims than the lead's settings said could share, or formats mixed (SnowField
        // does neither): the same result, one pass each.
        for (SnowSim* sim : sims)
            sim->step(capture, dtSeconds);
        return;
    }
    AccumulateBlock block{};
    const SnowParamsBlock& shared = lead.params_;
    block.capture[0] = shared.captureFarCm;
    block.capture[1] = shared.captureOffsetCm;
    block.capture[2] = shared.invCaptureDistance;
    block.capture[3] = shared.resolution;
    for (int i = 0; i < outputs; ++i) {
        SnowSim& sim = *sims[i];
        setStep(sim.params_, sim.clock_.advance(dtSeconds));
        sim.paramsBuffer_.update(0, sizeof(sim.params_), &sim.params_); // the material's copy
        const SnowParamsBlock& p = sim.params_;
        AccumulateOutputGpu& o = block.outputs[i];
        o.amounts[0] = p.contactScale;
        o.amounts[1] = p.stepFactor;
        o.amounts[2] = p.refillStep;
        o.amounts[3] = p.zeroFloor;
        o.tags[0] = p.ageStepS;
        o.tags[1] = p.rtBlurDistance;
        o.mode[0] = sim.sim_.accumulate == AccumulateMode::Max;
        o.mode[1] = sim.sim_.refill == RefillMode::Linear;
        o.mode[2] = sim.sim_.halfSafe;
    }
    lead.accumulateBlock_.update(0, sizeof(block), &block);

    gpu::PassState pass;
    if (outputs == 1) {
        pass = gpu::passInto(lead.framebuffers_[1 - lead.current_]);
    } else {
        // The targets alternate per sim (each its own ping-pong pair): attach this step's.
        const GLuint framebuffer = lead.sharedFramebuffer_.id();
        GLenum drawBuffers[kMaxSims];
        for (int i = 0; i < kMaxSims; ++i) {
            const GLuint target = i < outputs ? sims[i]->buffers_[1 - sims[i]->current_].id() : 0;
            glNamedFramebufferTexture(framebuffer, GL_COLOR_ATTACHMENT0 + i, target, 0);
            drawBuffers[i] = GL_COLOR_ATTACHMENT0 + i;
        }
        glNamedFramebufferDrawBuffers(framebuffer, outputs, drawBuffers);
        pass.framebuffer = framebuffer;
        pass.viewport = {0, 0, lead.region_.resolution, lead.region_.resolution};
    }
    pass.program = program->id();
    gpu::beginPass(pass);
    if (!inputsBound)
        gpu::bindInputs(accumulateBindings(sims, capture, "capture"));
    glBindVertexArray(lead.emptyVertexArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    for (SnowSim* sim : sims) {
        sim->current_ = 1 - sim->current_;
        sim->blurredIsCurrent_ = false;
    }
}

const gpu::Texture2D& SnowSim::persistent() const {
    return snowpack_ ? snowpack_->state() : buffers_[current_];
}

const gpu::Texture2D& SnowSim::surfaceInput() const {
    if (sim_.blur == BlurMode::PerPixel || !allocated())
        return persistent();
    return blurred_; // a snowpack's: its depth (the state's R), blurred
}

bool SnowSim::blurDue() const {
    // A snowpack's state changes every step (it never idles, and its passes are not this
    // sim's): its copy is made again whenever it is drawn.
    return sim_.blur != BlurMode::PerPixel && allocated() && (!blurredIsCurrent_ || snowpack_);
}

void SnowSim::blur() {
    if (!blurDue())
        return;
    const std::vector<gpu::PassBinding> bindings = blurBindings();
    gpu::bindInputs(bindings);
    blurDraws();
    gpu::releaseInputs(bindings);
}

std::vector<gpu::PassBinding> SnowSim::blurBindings() const {
    using gpu::BindingKind;
    const SnowSim* self = this;
    // The prepass reads persistentBuffer, the separable x pass blurSource: one unit.
    static_assert(gpu::slot::kPersistentBuffer == gpu::slot::kBlurSource);
    std::vector<gpu::PassBinding> bindings = {
        {BindingKind::UniformBlock, kSnowParamsBinding, name_ + ".params",
         [self] {
             return self->paramsBuffer_.id();
         }},
        {BindingKind::Texture, gpu::slot::kPersistentBuffer, bufferResource(),
         [self] { return self->persistent().id(); },
         [self] {
             return self->bilinearBorder_.id();
         }}};
    bindings.front().history = true; // the parameters as the sim's last step uploaded them
    return bindings;
}

void SnowSim::blurDraws() {
    if (!blurDue())
        return;
    const bool separable = sim_.blur == BlurMode::Separable;
    glBindVertexArray(emptyVertexArray_.id());
    // prepass: the spiral, buffer -> blurred. separable: x, buffer -> temp; then y, temp ->
    // blurred, both at half resolution.
    gpu::PassState first = gpu::passInto(separable ? blurTempFramebuffer_ : blurredFramebuffer_);
    first.program = blurProgram_->id();
    gpu::beginPass(first);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (separable) {
        gpu::PassState second = gpu::passInto(blurredFramebuffer_);
        second.program = blurProgramY_->id();
        gpu::beginPass(second);
        glBindTextureUnit(gpu::slot::kBlurSource, blurTemp_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    blurredIsCurrent_ = true;
}

} // namespace snowcap
