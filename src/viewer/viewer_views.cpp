#include "viewer/viewer_views.hpp"

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
#include "lab/probe_snap.hpp"
#include "physics/body_list.hpp"
#include "render/frame.hpp"
#include "render/view_params.hpp"
#include "terrain/terrain_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/mat4x4.hpp>
#include <glm/trigonometric.hpp>

namespace snowcap {

int sideBarPixels(const ViewerState& state, int width) {
    if (!state.sideBarShown)
        return 0;
    const float wanted = state.sideBarWidth * state.pixelsPerPoint;
    return static_cast<int>(std::clamp(wanted, 0.0f, kSideBarShare * float(width)));
}

glm::ivec4 sceneArea(const ViewerState& state, int width, int height) {
    const int bar = sideBarPixels(state, width);
    return {bar, 0, std::max(width - bar, 1), height};
}

namespace {

// The panes over a width x height rectangle whose bottom-left corner is the origin.
std::vector<Pane> panesAtOrigin(const ViewerState& state, int width, int height) {
    const float f = std::clamp(state.divider, 0.05f, 0.95f);
    if (state.simCount < 2 && state.layout != CompareLayout::Grid)
        return {{0, {0, 0, width, height}}}; // one sim: nothing to compare it with
    switch (state.layout) {
    case CompareLayout::SplitVertical: {
        const int split = static_cast<int>(f * width);
        return {{0, {0, 0, std::max(split - 1, 1), height}},
                {1, {split + 1, 0, std::max(width - split - 1, 1), height}}};
    }
    case CompareLayout::SplitHorizontal: {
        // A on top: GL rows count from the bottom, the divider from the top.
        const int split = height - static_cast<int>(f * height);
        return {{0, {0, split + 1, width, std::max(height - split - 1, 1)}},
                {1, {0, 0, width, std::max(split - 1, 1)}}};
    }
    case CompareLayout::AOnly:
        return {{0, {0, 0, width, height}}};
    case CompareLayout::BOnly:
        return {{1, {0, 0, width, height}}};
    case CompareLayout::Difference:
        return {{-1, {0, 0, width, height}}};
    case CompareLayout::Grid: {
        // A pixel's gap on each side of an inner edge, as the splits leave around the divider.
        std::vector<Pane> panes;
        const PaneGrid grid = paneGrid(state.simCount);
        for (int s = 0; s < state.simCount; ++s) {
            glm::ivec4 r = gridPaneRect(s, state.simCount, width, height);
            const int column = s % grid.columns, row = s / grid.columns;
            const int left = column > 0, right = column < grid.columns - 1;
            const int top = row > 0, bottom = row < grid.rows - 1;
            r = {r.x + left, r.y + bottom, std::max(r.z - left - right, 1),
                 std::max(r.w - top - bottom, 1)};
            panes.push_back({s, r});
        }
        return panes;
    }
    }
    return {};
}

} // namespace

std::vector<Pane> layoutPanes(const ViewerState& state, int width, int height) {
    const glm::ivec4 area = sceneArea(state, width, height);
    std::vector<Pane> panes = panesAtOrigin(state, area.z, area.w);
    for (Pane& pane : panes) {
        pane.rect.x += area.x;
        pane.rect.y += area.y;
    }
    return panes;
}

Camera paneCamera(const ViewerState& state, const Lab& lab, const Pane& pane) {
    const OrbitView& view = state.cameras[state.linkedCameras || pane.sim < 0 ? 0 : pane.sim];
    const glm::vec3 target(view.targetCm[0], view.targetCm[1], view.targetCm[2]);
    return orbitCamera(target, view.distanceCm, view.yawDeg, view.pitchDeg,
                       lab.settings().view.fovDeg, double(pane.rect.z) / std::max(pane.rect.w, 1));
}

void fitCameras(ViewerState& state, const Lab& lab, double aspect) {
    for (int s = 0; s < lab.field().simCount(); ++s) {
        OrbitView& view = state.cameras[s];
        if (view.distanceCm > 0.0)
            continue;
        // As render's cameraFor: the region's half width (plus a margin) fills the narrower
        // half-angle of the pane.
        const Region& region = lab.field().sim(s).region();
        const double halfFovY = glm::radians(lab.settings().view.fovDeg) * 0.5;
        const double halfFovX = std::atan(std::tan(halfFovY) * aspect);
        view.distanceCm = region.widthCm * 0.55 / std::tan(std::min(halfFovX, halfFovY));
        view.targetCm[0] = region.centreCm.x;
        view.targetCm[1] = region.centreCm.y;
        view.targetCm[2] = viewSurfaceZCm(lab.field(), s, lab.settings()); // on the terrain
    }
}

std::optional<Pane> paneAt(const ViewerState& state, int width, int height, glm::dvec2 pixel) {
    for (const Pane& pane : layoutPanes(state, width, height)) {
        const glm::ivec4 r = pane.rect;
        if (pixel.x >= r.x && pixel.y >= r.y && pixel.x < r.x + r.z && pixel.y < r.y + r.w)
            return pane;
    }
    return std::nullopt;
}

std::optional<glm::dvec3> pickGround(const ViewerState& state, const Lab& lab, int width,
                                     int height, glm::dvec2 pixel) {
    const std::optional<Pane> pane = paneAt(state, width, height, pixel);
    if (!pane)
        return std::nullopt;
    const glm::ivec4 r = pane->rect;
    const glm::dmat4 inverse =
        glm::inverse(glm::dmat4(paneCamera(state, lab, *pane).viewProjection()));
    const glm::dvec2 ndc((pixel.x - r.x) / r.z * 2.0 - 1.0, (pixel.y - r.y) / r.w * 2.0 - 1.0);
    glm::dvec4 nearPoint = inverse * glm::dvec4(ndc, -1.0, 1.0);
    glm::dvec4 farPoint = inverse * glm::dvec4(ndc, 1.0, 1.0);
    const glm::dvec3 a = glm::dvec3(nearPoint) / nearPoint.w;
    const glm::dvec3 b = glm::dvec3(farPoint) / farPoint.w;
    const double surface = lab.settings().snow.surfaceZCm;
    // On a terrain the ray's first crossing of the undisturbed snow top over it, between the
    // near and the far plane.
    if (const std::shared_ptr<const HeightField>& terrain = lab.field().terrain();
        terrain && !terrain->flat())
        return firstGroundHit(*terrain, surface, a, b);
    const double dz = b.z - a.z;
    if (std::abs(dz) < 1e-9)
        return std::nullopt;
    const double t = (surface - a.z) / dz;
    if (t < 0.0)
        return std::nullopt;
    const glm::dvec3 hit = a + (b - a) * t;
    return glm::dvec3(hit.x, hit.y, surface); // on the plane exactly
}

std::optional<glm::dvec2> pickSurface(const ViewerState& state, const Lab& lab, int width,
                                      int height, glm::dvec2 pixel) {
    if (const auto hit = pickGround(state, lab, width, height, pixel))
        return glm::dvec2(*hit);
    return std::nullopt;
}

std::optional<std::string> throwSnowball(const ViewerState& state, Lab& lab, int width, int height,
                                         glm::dvec2 pixel) {
    const auto target = pickGround(state, lab, width, height, pixel);
    if (!target)
        return std::string("throw: aim at the snow (the ray from the camera misses it)");
    const std::optional<Pane> pane = paneAt(state, width, height, pixel);
    if (!pane)
        return std::string("throw: aim at a pane");
    const Camera camera = paneCamera(state, lab, *pane);
    const Settings& settings = lab.settings();
    const glm::vec3 to(*target);
    // From half a metre in front of the eye, towards the target (clear of the near plane).
    const glm::vec3 from = camera.eyeCm + 50.0f * glm::normalize(to - camera.eyeCm);
    BodySettings ball = snowballToward(from, to, state.throwSpeedCmS, state.throwRadiusCm,
                                       settings.physics.gravityCmS2, lab.timeS());
    if (auto error = lab.throwBody(std::move(ball)))
        return "throw: " + *error;
    return std::nullopt;
}

void placeProbe(ViewerState& state, const Lab& lab, std::optional<glm::dvec2> hit, int snapSim) {
    if (!hit) {
        state.probeNote = "that click missed the snow: the probe stays where it was";
        return;
    }
    state.probeSamples.clear();
    state.probeCm = *hit;
    if (state.probeSnapCm <= 0.0) {
        state.probeNote.clear();
        return;
    }
    snapSim = std::clamp(snapSim, 0, lab.field().simCount() - 1);
    const char pane = char('A' + snapSim);
    const auto snap = snapToPrint(lab.field().sim(snapSim), *hit, state.probeSnapCm);
    if (!snap) {
        char note[128];
        std::snprintf(note, sizeof note,
                      "no print of %c within %.0f cm: the probe is where you "
                      "clicked",
                      pane, state.probeSnapCm);
        state.probeNote = note;
        return;
    }
    state.probeCm = snap->worldCm;
    char note[128];
    std::snprintf(note, sizeof note, "snapped %.1f cm to a print of %c (reads %.3g)", snap->movedCm,
                  pane, snap->value);
    state.probeNote = note;
}

glm::vec4 readTexel(const gpu::Texture2D& texture, int x, int y) {
    glm::vec4 texel(0.0f);
    x = std::clamp(x, 0, texture.width() - 1);
    y = std::clamp(y, 0, texture.height() - 1);
    const gpu::TextureFormat format = texture.format();
    const GLenum layout = gpu::isDepth(format)                    ? GL_DEPTH_COMPONENT
                          : gpu::formatInfo(format).channels == 1 ? GL_RED
                                                                  : GL_RGBA;
    glGetTextureSubImage(texture.id(), 0, x, y, 0, 1, 1, 1, layout, GL_FLOAT, sizeof(texel),
                         &texel[0]);
    return texel;
}

std::optional<std::string> ViewerGl::init(gpu::ShaderLibrary& shaders) {
    auto loaded = shaders.load({"viewer colour map",
                                {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                 {GL_FRAGMENT_SHADER, "viewer/colour_map.frag"}}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    colourMap_ = std::get<gpu::ShaderProgram*>(loaded);
    emptyArray_ = gpu::VertexArray("viewer.empty");
    linear_ = gpu::Sampler(GL_LINEAR, GL_CLAMP_TO_EDGE, "viewer.linear");
    return std::nullopt;
}

ViewerGl::Target& ViewerGl::target(std::map<int, Target>& targets, int slot, int width, int height,
                                   gpu::TextureFormat format, bool withDepth) {
    Target& t = targets[slot];
    if (t.colour.width() != width || t.colour.height() != height || t.colour.format() != format) {
        t.colour = gpu::Texture2D(width, height, format, "viewer.target");
        t.depth = withDepth ? gpu::Texture2D(width, height, gpu::TextureFormat::D32F,
                                             "viewer.target.depth")
                            : gpu::Texture2D();
        t.framebuffer =
            gpu::Framebuffer(&t.colour, withDepth ? &t.depth : nullptr, "viewer.target");
    }
    return t;
}

void ViewerGl::drawFrame(Lab& lab, const ViewerState& state, GLuint framebuffer, int width,
                         int height, bool drawPanes, std::function<void()> panels,
                         std::span<const DeformerInstance> deformers) {
    FrameDraw draw;
    gpu::PassState background;
    background.framebuffer = framebuffer;
    background.viewport = {0, 0, width, height};
    background.clearColour = glm::vec4(0.08f, 0.09f, 0.11f, 1.0f);
    background.clearDepth = 1.0f;
    draw.background = background;
    std::optional<Pane> difference;
    if (drawPanes)
        for (const Pane& pane : layoutPanes(state, width, height)) {
            if (pane.sim < 0) {
                differenceViews(state, lab, pane, draw.views);
                difference = pane;
                continue;
            }
            FrameView view;
            view.sim = pane.sim;
            view.request.framebuffer = framebuffer;
            view.request.viewportPx = pane.rect;
            view.request.camera = paneCamera(state, lab, pane);
            view.timerScope = std::string("view ") + char('A' + pane.sim);
            draw.views.push_back(view);
        }
    draw.ui = [&, difference] {
        if (difference) {
            if (state.differenceAuto && ++framesSinceMeasured_ >= 10) {
                autoDifferenceRange_ = measureDifferenceRange();
                framesSinceMeasured_ = 0;
            }
            composeDifference(state, *difference, framebuffer);
        }
        if (panels)
            panels();
    };
    if (deformers.empty())
        lab.draw(std::move(draw));
    else
        runFrame(lab.field(), lab.renderer(), {deformers, 0.0, std::move(draw)});
}

void ViewerGl::differenceViews(const ViewerState& state, const Lab& lab, const Pane& pane,
                               std::vector<FrameView>& views) {
    const int w = pane.rect.z, h = pane.rect.w;
    for (int s = 0; s < 2; ++s) {
        Target& t = target(difference_, s, w, h, gpu::TextureFormat::R32F, true);
        FrameView view;
        view.sim = s;
        view.request.framebuffer = t.framebuffer.id();
        view.request.viewportPx = {0, 0, w, h};
        view.request.camera = paneCamera(state, lab, pane);
        view.request.output = SurfaceOutput::Persistent;
        view.timerScope = "view A-B";
        views.push_back(view);
    }
}

float ViewerGl::differenceRange(const ViewerState& state) const {
    return state.differenceAuto ? autoDifferenceRange_ : state.differenceRange;
}

float ViewerGl::measureDifferenceRange() const {
    const auto a = difference_.find(0), b = difference_.find(1);
    if (a == difference_.end() || b == difference_.end())
        return autoDifferenceRange_;
    const std::vector<float> va = a->second.colour.readFloats(), vb = b->second.colour.readFloats();
    std::vector<float> spread;
    for (std::size_t i = 0; i < va.size() && i < vb.size(); ++i)
        if (std::isfinite(va[i]) && std::isfinite(vb[i]) && (va[i] != 0.0f || vb[i] != 0.0f))
            spread.push_back(std::abs(va[i] - vb[i]));
    if (spread.empty())
        return 0.001f;
    auto at = spread.begin() + static_cast<std::ptrdiff_t>(0.99 * (spread.size() - 1));
    std::nth_element(spread.begin(), at, spread.end());
    // Up to the next 1, 2 or 5 times a power of ten: the key's ends read as round numbers.
    const float peak = std::max(*at, 1e-3f);
    const float decade = std::pow(10.0f, std::floor(std::log10(peak)));
    for (float step : {1.0f, 2.0f, 5.0f, 10.0f})
        if (peak <= step * decade * 1.0001f)
            return std::clamp(step * decade, 0.001f, 1.0f);
    return 1.0f;
}

void ViewerGl::composeDifference(const ViewerState& state, const Pane& pane, GLuint framebuffer) {
    gpu::PassState pass;
    pass.framebuffer = framebuffer;
    pass.viewport = pane.rect;
    pass.program = colourMap_->id();
    gpu::beginPass(pass);
    const GLuint units[] = {gpu::slot::kDebugSource, gpu::slot::kDebugOther,
                            gpu::slot::kDebugSourceDepth};
    glBindTextureUnit(units[0], difference_[0].colour.id());
    glBindTextureUnit(units[1], difference_[1].colour.id());
    glBindTextureUnit(units[2], difference_[0].depth.id());
    for (GLuint unit : units)
        glBindSampler(unit, 0);
    glProgramUniform2f(colourMap_->id(), 0, 0.0f, differenceRange(state));
    glProgramUniform1i(colourMap_->id(), 1, 0);
    glProgramUniform1i(colourMap_->id(), 2, 1);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

const gpu::Texture2D& ViewerGl::preview(int slot, const gpu::Texture2D& source, int channel,
                                        glm::vec2 range, int size, PreviewValue value) {
    // A pass of its own while the panels are built; the UI pass after it sets its own target.
    Target& t = target(previews_, slot, size, size, gpu::TextureFormat::RGBA8, false);
    gpu::PassState pass = gpu::passInto(t.framebuffer);
    pass.program = colourMap_->id();
    gpu::beginPass(pass);
    glBindTextureUnit(gpu::slot::kDebugSource, source.id());
    // The buffer's own nearest filtering: texels stay visible.
    glBindSampler(gpu::slot::kDebugSource, 0);
    glProgramUniform2f(colourMap_->id(), 0, range.x, range.y);
    glProgramUniform1i(colourMap_->id(), 1, channel);
    glProgramUniform1i(colourMap_->id(), 2,
                       value == PreviewValue::SnowpackDensity ? 2
                       : value == PreviewValue::Diverging     ? 5
                                                              : 0);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    return t.colour;
}

const gpu::Texture2D& ViewerGl::colourBar(int slot, int width, int height, BarMap map) {
    Target& t = target(colourBars_, slot, width, height, gpu::TextureFormat::RGBA8, false);
    gpu::PassState pass = gpu::passInto(t.framebuffer);
    pass.program = colourMap_->id();
    gpu::beginPass(pass);
    glProgramUniform1i(colourMap_->id(), 2, map == BarMap::Diverging ? 4 : 3);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    return t.colour;
}

} // namespace snowcap
