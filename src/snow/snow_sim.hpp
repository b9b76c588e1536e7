#pragma once
// One snow simulation — RT_Capture + RT_Persistant + PP_Depth_Snow: a ping-pong pair of R16F
// textures and its parameters. A step reads the capture depth and the previous buffer and writes
// the other buffer, then swaps (the swap replaces UE's MM_FoliageRT copy).

#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "core/snow_math.hpp"
#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
#include "gpu/shader_library.hpp"
#include "snow/contact_capture.hpp"
#include "snow/snow_params.hpp"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

class SnowpackSim; // snow/snowpack_sim.hpp

// The accumulate pass for `outputs` r16f sims sharing a capture (1..kMaxSims); rgba16f sims
// have a variant of their own (accumulatePrograms). Modes are uniforms (accumulate.frag).
gpu::ProgramDesc accumulateProgram(int outputs);
// Every accumulate program `settings` can need: per format, one output up to the most sims of
// that format that could share a capture (one resolution; following regions regroup them).
std::vector<gpu::ProgramDesc> accumulatePrograms(const Settings& settings);
gpu::ProgramDesc blurPrepassProgram();
// blur = "separable": axis 0 (x, full -> half resolution) or 1 (y, half resolution); with
// `slope`, the passes also carry the blurred field's derivative (r16f buffers).
gpu::ProgramDesc blurSeparableProgram(int axis, bool slope);

// The name the frame's passes give sim `simName`'s snowpack state ("snowpack.a"; what its
// SnowSim's bufferResource() is); its block, buffers and lists are this name and a part
// ("snowpack.a.block").
inline std::string snowpackResource(std::string_view simName) {
    return "snowpack." + std::string(simName);
}

class SnowSim {
public:
    SnowSim() = default;
    SnowSim(std::string name, int index);

    // Applies settings live. A new region (resolution, width) reallocates and clears at once;
    // other changes keep the buffer. Fails (keeping the previous state) if a shader fails.
    std::optional<std::string> configure(const Settings& settings, const Region& region,
                                         gpu::ShaderLibrary& shaders);

    // One accumulate pass from `capture` with time step dt, with the amounts of the sim's clock
    // for that step; swaps the pair.
    void step(const ContactCapture& capture, double dtSeconds);
    // One accumulate pass for every sim in `sims` (1..kMaxSims, one format, the capture's
    // resolution): the capture is read once, each sim writes its own output with its own amounts
    // and modes and steps its own clock by dt. Texel for texel what each sim's own step() gives.
    // `inputsBound`: the frame's loop has bound accumulateBindings already (gpu/pass_record).
    static void stepShared(std::span<SnowSim* const> sims, const ContactCapture& capture,
                           double dtSeconds, bool inputsBound = false);
    // What that pass binds: its block, the capture's depth and contact, each sim's current
    // buffer (looked up when bound: each step swaps the pair). `buffers` names them.
    static std::vector<gpu::PassBinding> accumulateBindings(std::span<SnowSim* const> sims,
                                                            const ContactCapture& capture,
                                                            const std::string& captureName);
    void reset(); // ClearRenderTarget2D on both buffers (the EndPlay analogue)

    // sim.X.region follow modes: move the region's centre, shifting the buffer so the trail
    // stays at its world position (src/snow/region_shift.cpp).
    void shiftRegion(glm::dvec2 centreCm, const gpu::ShaderProgram& shift);
    // Puts the region's centre at `centreCm` and leaves the texels where they are: a networked
    // client whose buffer is written from the server's tiles (src/snow/region_shift.cpp).
    void placeRegion(glm::dvec2 centreCm);
    // snow.quality = "off": parameters only, every texture released (src/snow/region_shift.cpp).
    void configureOff(const Settings& settings, const Region& region);
    // snow.idle_skip: a step whose pass is skipped (the buffer is all zero and nothing touches
    // it) advances the clock exactly as a run step does, so what comes after is the same.
    void idleStep(double dtSeconds);
    bool allocated() const { return buffers_[0].id() != 0; }
    // snow.quality as the sim was configured with (the surface's grid density follows it).
    Quality quality() const { return quality_; }

    const std::string& name() const { return name_; }
    const Region& region() const { return region_; }
    const SimSettings& settings() const { return sim_; }
    const SnowParamsBlock& params() const { return params_; }
    // A snowpack sim's buffer is its snowpack state (RGBA32F depth, density, water, free): what
    // the surface, the outputs, the probes and the stats read.
    const gpu::Texture2D& persistent() const;
    // sim.X.model = "snowpack": the field's SnowpackSim of this sim (null: a decay sim).
    void attachSnowpack(const SnowpackSim* snowpack) { snowpack_ = snowpack; }
    const SnowpackSim* snowpack() const { return snowpack_; }
    // What the material samples: the blurred copy with blur = "prepass" or "separable" (as the
    // last blur() left it), else the buffer itself. The separable copy has half the side.
    const gpu::Texture2D& surfaceInput() const;
    // The per-step blur pass (blur = "prepass" or "separable"): buffer -> blurred copy. It runs
    // when the frame draws this sim and the copy is older than the buffer, so it runs at most
    // once per step, and steps that draw nothing (most of a headless run) skip it.
    bool blurDue() const;
    void blur();
    // The blur as a pass of the frame's list: what its first draw binds (SnowParams, the
    // current buffer with the bilinear border sampler), and its draws with those bound.
    std::vector<gpu::PassBinding> blurBindings() const;
    void blurDraws();
    // The resource names a pass list gives the sim's buffer and blurred copy ("a.buffer"; a
    // snowpack sim's buffer is its state, "snowpack.a").
    std::string bufferResource() const {
        return snowpack_ ? snowpackResource(name_) : name_ + ".buffer";
    }
    std::string blurredResource() const { return name_ + ".blurred"; }
    const gpu::Buffer& paramsBuffer() const { return paramsBuffer_; }
    std::size_t bytes() const {
        return buffers_[0].bytes() + buffers_[1].bytes() + (blurred_.id() ? blurred_.bytes() : 0) +
               (blurTemp_.id() ? blurTemp_.bytes() : 0);
    }
    // The clock: scenario time since the last reset, and what its last step applied.
    const SimClock& clock() const { return clock_; }
    const SimStep& lastStep() const { return clock_.last(); }
    double timeS() const { return clock_.timeS(); }
    // A world file's clock (src/snow/world_file.cpp): the run steps on from there.
    void restoreClock(const SimClock::State& state) { clock_.restore(state); }
    gpu::TextureFormat bufferFormat() const {
        return sim_.format == BufferFormat::RGBA16F ? gpu::TextureFormat::RGBA16F
                                                    : gpu::TextureFormat::R16F;
    }
    // blur = "separable" on an r16f buffer: the blurred copy carries its slope (G, B).
    bool blurCarriesSlope() const {
        return sim_.blur == BlurMode::Separable && sim_.format == BufferFormat::R16F;
    }
    gpu::TextureFormat blurredFormat() const {
        return blurCarriesSlope() ? gpu::TextureFormat::RGBA16F : bufferFormat();
    }

private:
    std::string name_;
    int index_ = 0;
    SimSettings sim_;
    Quality quality_ = Quality::Custom;
    Region region_{};
    SnowParamsBlock params_{};
    SimClock clock_;
    // programs_[n - 1]: the pass with n outputs, loaded up to the sims that could share.
    std::array<const gpu::ShaderProgram*, kMaxSims> programs_{};
    gpu::Buffer accumulateBlock_;        // the pass's per-output amounts (when this sim leads it)
    gpu::Framebuffer sharedFramebuffer_; // its outputs, attached anew each step
    const gpu::ShaderProgram* blurProgram_ = nullptr;  // prepass, or separable's x pass
    const gpu::ShaderProgram* blurProgramY_ = nullptr; // separable's y pass
    gpu::Texture2D blurred_;
    gpu::Texture2D blurTemp_; // separable: the x pass's output
    gpu::Framebuffer blurTempFramebuffer_;
    bool blurredIsCurrent_ = false; // the blurred copy is of the buffer as it is now
    gpu::Framebuffer blurredFramebuffer_;
    gpu::Sampler bilinearBorder_;
    std::array<gpu::Texture2D, 2> buffers_;
    std::array<gpu::Framebuffer, 2> framebuffers_;
    gpu::Buffer paramsBuffer_;
    gpu::VertexArray emptyVertexArray_;
    int current_ = 0;
    const SnowpackSim* snowpack_ = nullptr; // owned by the field
};

} // namespace snowcap
