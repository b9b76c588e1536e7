#include "app/viewer_panels.hpp"

#include <imgui.h>

namespace snowcap {

namespace {

bool sliderDouble(const char* label, double& value, double lo, double hi, const char* format) {
    float v = static_cast<float>(value);
    if (!ImGui::SliderFloat(label, &v, static_cast<float>(lo), static_cast<float>(hi), format))
        return false;
    value = v;
    return true;
}

} // namespace

bool simPanel(const char* title, SimSettings& sim) {
    bool changed = false;
    ImGui::PushID(title);
    if (ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen)) {
        changed |= sliderDouble("decay", sim.decay, 0.5, 1.0, "%.4f");
        int timing = sim.decayTiming == DecayTiming::DeltaTime ? 1 : 0;
        if (ImGui::Combo("decay timing", &timing, "per_frame\0delta_time\0")) {
            sim.decayTiming = timing ? DecayTiming::DeltaTime : DecayTiming::PerFrame;
            changed = true;
        }
        int accumulate = sim.accumulate == AccumulateMode::Max ? 1 : 0;
        if (ImGui::Combo("accumulate", &accumulate, "add\0max\0")) {
            sim.accumulate = accumulate ? AccumulateMode::Max : AccumulateMode::Add;
            changed = true;
        }
        changed |= ImGui::Checkbox("half-safe decay", &sim.halfSafe);
        int resolutionIndex = 0;
        const int resolutions[] = {0, 128, 256, 512, 1024, 2048, 4096};
        for (int i = 0; i < 7; ++i)
            if (resolutions[i] == sim.resolution)
                resolutionIndex = i;
        if (ImGui::Combo("resolution", &resolutionIndex,
                         "shared\0128\0256\0512\0001024\0002048\0004096\0")) {
            sim.resolution = resolutions[resolutionIndex];
            changed = true;
        }
        MaterialSettings& m = sim.material;
        ImGui::TextDisabled("material");
        changed |= sliderDouble("mask_multi", m.maskMulti, 1.0, 100.0, "%.1f");
        changed |= sliderDouble("tgl", m.tgl, 0.5, 1.0, "%.3f");
        changed |= sliderDouble("tgh", m.tgh, 0.5, 1.0, "%.3f");
        changed |= sliderDouble("displacement cm (0 auto)", m.displacementMagnitudeCm, 0.0, 2000.0,
                                "%.0f");
        changed |= ImGui::SliderInt("distance steps", &m.distanceSteps, 1, 32);
        changed |= ImGui::SliderInt("radial steps", &m.radialSteps, 1, 16);
        changed |= sliderDouble("blur distance (0 auto)", m.rtBlurDistance, 0.0, 0.05, "%.4f");
        changed |= sliderDouble("edge control", m.edgeControl, 0.0, 0.2, "%.3f");
        changed |= sliderDouble("normal intensity", m.normalIntensity, 0.0, 5.0, "%.2f");
        int normals = sim.normals == NormalMode::Sobel ? 1 : 0;
        if (ImGui::Combo("normals", &normals, "height_to_normal\0sobel\0")) {
            sim.normals = normals ? NormalMode::Sobel : NormalMode::HeightToNormal;
            changed = true;
        }
        int blur = sim.blur == BlurMode::Prepass ? 1 : 0;
        if (ImGui::Combo("blur", &blur, "per_pixel (UE)\0prepass\0")) {
            sim.blur = blur ? BlurMode::Prepass : BlurMode::PerPixel;
            changed = true;
        }
        int geometry = sim.displacement == SurfaceGeometry::Tessellation ? 1 : 0;
        if (ImGui::Combo("displacement", &geometry, "vertex grid\0tessellation\0")) {
            sim.displacement =
                geometry ? SurfaceGeometry::Tessellation : SurfaceGeometry::VertexGrid;
            changed = true;
        }
    }
    ImGui::PopID();
    return changed;
}

void controlPanel(ViewerState& state, double simTimeS, double fps, const std::string& renderer,
                  const std::string& shaderError) {
    ImGui::Text("t = %.2f s   %.0f fps", simTimeS, fps);
    ImGui::TextDisabled("%s", renderer.c_str());
    if (ImGui::Button(state.paused ? "Play (Space)" : "Pause (Space)"))
        state.paused = !state.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (.)"))
        state.stepOnce = true;
    ImGui::SameLine();
    if (ImGui::Button("Reset (R)"))
        state.resetRequested = true;
    int layout = static_cast<int>(state.layout);
    if (ImGui::Combo("layout", &layout, "A | B\0A only\0B only\0"))
        state.layout = static_cast<CompareLayout>(layout);
    ImGui::Checkbox("vsync", &state.vsync);
    ImGui::SameLine();
    if (ImGui::Button("Screenshot (F12)"))
        state.screenshotRequested = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload shaders (F5)"))
        state.reloadShaders = true;
    if (!shaderError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", shaderError.c_str());
    if (!state.status.empty())
        ImGui::TextWrapped("%s", state.status.c_str());
    if (ImGui::CollapsingHeader("Help")) {
        ImGui::BulletText("left drag: orbit   right drag: pan   wheel: zoom");
        ImGui::BulletText("Space pause, . single step, R reset both sims");
        ImGui::BulletText("F5 reload shaders (also automatic on save), F12 screenshot to out/");
        ImGui::BulletText("Esc quits");
    }
}

} // namespace snowcap
