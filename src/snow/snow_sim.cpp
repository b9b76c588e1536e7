#include "snow/snow_sim.hpp"

#include "gpu/pass_state.hpp"

namespace snowcap {

gpu::ProgramDesc accumulateProgram(const SimSettings& sim) {
    return {"accumulate",
            {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
             {GL_FRAGMENT_SHADER, "snow/accumulate.frag"}},
            {{"ACCUMULATE_MAX", sim.accumulate == AccumulateMode::Max ? "1" : "0"},
             {"HALF_SAFE", sim.halfSafe ? "1" : "0"},
             {"REFILL_LINEAR", sim.refill == RefillMode::Linear ? "1" : "0"},
             {"FORMAT_RGBA", sim.format == BufferFormat::RGBA16F ? "1" : "0"}}};
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
    auto loaded = shaders.load(accumulateProgram(sim));
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    program_ = std::get<gpu::ShaderProgram*>(loaded);
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
    settings_ = settings;
    sim_ = sim;
    region_ = region;
    params_ = makeSnowParams(settings, region, index_, 1.0f);
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
    quantizer_.reset();
    ageClock_.reset();
    linearRefill_.reset();
    timeS_ = 0.0;
    current_ = 0;
}

void SnowSim::step(const ContactCapture& capture, double dtSeconds) {
    timeS_ += dtSeconds;
    // sim.X.decay_keys: the decay of the scenario time this step ends at.
    params_.decay = static_cast<float>(decayAt(sim_, timeS_));
    if (sim_.refill == RefillMode::Linear) {
        params_.stepFactor = 1.0f;
        params_.refillStep = linearRefill_.next(sim_.refillRatePerS * dtSeconds);
    } else {
        const double exponent = decayExponent(params_.decay, sim_.decayTiming, dtSeconds);
        params_.stepFactor =
            sim_.halfSafe ? quantizer_.next(exponent) : static_cast<float>(std::exp(-exponent));
        params_.refillStep = 0.0f;
    }
    params_.ageStepS = ageClock_.next(dtSeconds);
    paramsBuffer_.update(0, sizeof(params_), &params_);

    const int target = 1 - current_;
    gpu::PassState pass = gpu::passInto(framebuffers_[target]);
    pass.program = program_->id();
    gpu::beginPass(pass);
    glBindBufferBase(GL_UNIFORM_BUFFER, kSnowParamsBinding, paramsBuffer_.id());
    glBindTextureUnit(0, capture.depth().id());
    glBindTextureUnit(1, buffers_[current_].id());
    glBindTextureUnit(3, capture.contact().id());
    glBindVertexArray(emptyVertexArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    current_ = target;
    blurredIsCurrent_ = false;
}

const gpu::Texture2D& SnowSim::surfaceInput() const {
    if (sim_.blur == BlurMode::PerPixel || !allocated())
        return persistent();
    return blurred_;
}

bool SnowSim::blurDue() const {
    return sim_.blur != BlurMode::PerPixel && allocated() && !blurredIsCurrent_;
}

void SnowSim::blur() {
    if (!blurDue())
        return;
    const bool separable = sim_.blur == BlurMode::Separable;
    glBindBufferBase(GL_UNIFORM_BUFFER, kSnowParamsBinding, paramsBuffer_.id());
    glBindSampler(2, bilinearBorder_.id());
    glBindVertexArray(emptyVertexArray_.id());
    // prepass: the spiral, buffer -> blurred. separable: x, buffer -> temp; then y, temp ->
    // blurred, both at half resolution.
    gpu::PassState first = gpu::passInto(separable ? blurTempFramebuffer_ : blurredFramebuffer_);
    first.program = blurProgram_->id();
    gpu::beginPass(first);
    glBindTextureUnit(2, buffers_[current_].id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (separable) {
        gpu::PassState second = gpu::passInto(blurredFramebuffer_);
        second.program = blurProgramY_->id();
        gpu::beginPass(second);
        glBindTextureUnit(2, blurTemp_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glBindSampler(2, 0);
    blurredIsCurrent_ = true;
}

} // namespace snowcap
