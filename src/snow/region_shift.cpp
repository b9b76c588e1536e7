#include "snow/region_shift.hpp"

#include "gpu/pass_state.hpp"
#include "snow/snow_sim.hpp"

#include <cmath>

namespace snowcap {

gpu::ProgramDesc regionShiftProgram(bool bilinear) {
    return {"region_shift",
            {{GL_VERTEX_SHADER, "common/fullscreen.vert"}, {GL_FRAGMENT_SHADER, "snow/shift.frag"}},
            {{"SHIFT_BILINEAR", bilinear ? "1" : "0"}}};
}

glm::dvec2 followCentre(RegionMode mode, glm::dvec2 targetCm, glm::dvec2 currentCm,
                        glm::dvec2 originCm, double texelCm) {
    switch (mode) {
    case RegionMode::Fixed:
        return currentCm;
    case RegionMode::FollowNaive:
        return targetCm;
    case RegionMode::FollowSnapped:
        return snappedCentre(targetCm, originCm, texelCm);
    }
    return currentCm;
}

std::vector<float> shiftBufferCpu(const std::vector<float>& buffer, int resolution,
                                  glm::dvec2 offsetTexels, bool bilinear) {
    const int n = resolution;
    auto at = [&](int x, int y) {
        return x < 0 || y < 0 || x >= n || y >= n ? 0.0f
                                                  : buffer[static_cast<std::size_t>(y) * n + x];
    };
    // The uniform is a vec2 of floats: the shader sees the offset at float precision.
    const float ox = static_cast<float>(offsetTexels.x), oy = static_cast<float>(offsetTexels.y);
    std::vector<float> out(buffer.size(), 0.0f);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            float value;
            if (!bilinear) {
                value = at(x + static_cast<int>(std::nearbyint(ox)),
                           y + static_cast<int>(std::nearbyint(oy)));
            } else {
                const float sx = float(x) + ox, sy = float(y) + oy;
                const float bx = std::floor(sx), by = std::floor(sy);
                const float fx = sx - bx, fy = sy - by;
                const int ix = static_cast<int>(bx), iy = static_cast<int>(by);
                const float bottom = at(ix, iy) * (1.0f - fx) + at(ix + 1, iy) * fx;
                const float top = at(ix, iy + 1) * (1.0f - fx) + at(ix + 1, iy + 1) * fx;
                value = roundToHalf(bottom * (1.0f - fy) + top * fy, HalfRounding::NearestEven);
            }
            out[static_cast<std::size_t>(y) * n + x] = value;
        }
    return out;
}

// ---- SnowSim's part (declared in snow_sim.hpp) ----------------------------------------------

void SnowSim::placeRegion(glm::dvec2 centreCm) {
    region_.centreCm = centreCm;
    // Only GuidePosition changes (the width, and all that depends on it, stays).
    params_.regionCentreCm[0] = static_cast<float>(centreCm.x);
    params_.regionCentreCm[1] = static_cast<float>(centreCm.y);
    if (paramsBuffer_.id())
        paramsBuffer_.update(0, sizeof(params_), &params_);
}

void SnowSim::shiftRegion(glm::dvec2 centreCm, const gpu::ShaderProgram& shift) {
    const glm::dvec2 offset = shiftOffsetTexels(region_.centreCm, centreCm, region_.texelCm());
    placeRegion(centreCm);
    if (!allocated() || (offset.x == 0.0 && offset.y == 0.0))
        return;
    const int target = 1 - current_;
    gpu::PassState pass = gpu::passInto(framebuffers_[target]);
    pass.program = shift.id();
    gpu::beginPass(pass);
    glProgramUniform2f(shift.id(), 0, static_cast<float>(offset.x), static_cast<float>(offset.y));
    glBindTextureUnit(gpu::slot::kShiftSource, buffers_[current_].id());
    glBindVertexArray(emptyVertexArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    current_ = target;
    blurredIsCurrent_ = false;
}

void SnowSim::idleStep(double dtSeconds) {
    // The clock step() would advance (time, decay keys, every quantum's remainder); the pass
    // itself would only write the zeros again, so it and the upload are left out.
    setStep(params_, clock_.advance(dtSeconds));
}

void SnowSim::configureOff(const Settings& settings, const Region& region) {
    // snow.quality = "off": parameters only (the surface pass still reads the block), no
    // texture, no framebuffer. The material samples texture 0, which GL defines to read
    // (0, 0, 0, 1): Snow_Mask 0, flat snow.
    sim_ = settings.sims[index_];
    quality_ = settings.snow.quality;
    region_ = region;
    clock_.configure(AccumulateLaw::of(sim_, settings.capture));
    params_ = makeSnowParams(settings, region, index_);
    buffers_ = {};
    framebuffers_ = {};
    sharedFramebuffer_ = {}; // the fused accumulate's outputs
    blurred_ = {};
    blurredFramebuffer_ = {};
    blurredIsCurrent_ = false;
    clock_.reset(); // no step runs while off; a field turned on again starts cleared
    current_ = 0;
    if (!paramsBuffer_.id())
        paramsBuffer_ = gpu::Buffer(sizeof(SnowParamsBlock), &params_, "sim." + name_ + ".params");
    paramsBuffer_.update(0, sizeof(params_), &params_);
}

} // namespace snowcap
