// The control window's Record button: the window's frames as H.264 video (lab/video.hpp), one
// frame per simulated step at the scenario's fps, so the video lasts the simulated time it
// shows. While recording the lab runs at fixed step (one 1 / run.fps step per window frame)
// whatever the wall clock does; a paused lab records nothing.
#include "lab/video.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_panels.hpp"

#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

namespace snowcap {

struct Recording {
    std::unique_ptr<VideoWriter> writer;
    long long lastStep = -1;
    bool fixedStepBefore = false;
};

namespace {

// out/snowcap_YYYYMMDD_HHMMSS.mp4 when the field is left empty.
std::filesystem::path defaultVideoPath() {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", std::localtime(&now));
    return std::filesystem::path("out") / (std::string("snowcap_") + stamp + ".mp4");
}

void stopRecording(ViewerState& state) {
    Recording& recording = *state.recording;
    const int frames = recording.writer->frames();
    const std::string path = recording.writer->path().string();
    if (auto error = recording.writer->finish())
        state.status = *error;
    else
        state.status = fmt::format("recorded {}: {} frames", path, frames);
    spdlog::info("{}", state.status);
    state.fixedStep = recording.fixedStepBefore;
    state.recording.reset();
}

} // namespace

void recordControls(PanelContext& context) {
    ViewerState& state = context.state;
    if (ImGui::Button(state.recording ? "Stop recording" : "Record"))
        state.recordToggle = true;
    ImGui::SameLine();
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), "%s", state.recordPath.c_str());
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::BeginDisabled(state.recording != nullptr);
    ImGui::InputTextWithHint("##video", "out/snowcap_<time>.mp4", buffer, sizeof(buffer));
    ImGui::EndDisabled();
    state.recordPath = buffer;
    if (state.recording)
        ImGui::Text("recording %s: %d frames (%.2f s)",
                    state.recording->writer->path().filename().c_str(),
                    state.recording->writer->frames(),
                    state.recording->writer->frames() / context.lab.settings().run.fps);
}

void recordFrame(Lab& lab, ViewerState& state, int width, int height) {
    if (state.recordToggle) {
        state.recordToggle = false;
        if (state.recording) {
            stopRecording(state);
            return;
        }
        const std::filesystem::path path =
            state.recordPath.empty() ? defaultVideoPath() : std::filesystem::path(state.recordPath);
        auto opened = VideoWriter::open(path, width, height, lab.settings().run.fps);
        if (auto* error = std::get_if<std::string>(&opened)) {
            state.status = *error;
            spdlog::error("{}", *error);
            return;
        }
        state.recording = std::make_shared<Recording>();
        state.recording->writer = std::move(std::get<0>(opened));
        state.recording->fixedStepBefore = state.fixedStep;
        state.fixedStep = true;
        state.status = "recording " + path.string();
        // The first frame is this one: the lab as it stands when Record is pressed.
    } else if (!state.recording || lab.steps() == state.recording->lastStep) {
        return;
    }
    state.recording->lastStep = lab.steps();
    ImageRgba8 image = readFramebufferImage(0, width, height);
    std::vector<std::string> lines{fmt::format("t = {:.3f} s", lab.timeS())};
    if (state.probeCm && !state.probeSamples.empty()) {
        const ProbeSample& last = state.probeSamples.back();
        std::string line =
            fmt::format("probe ({:.0f}, {:.0f}) cm:", state.probeCm->x, state.probeCm->y);
        for (int s = 0; s < lab.field().simCount(); ++s)
            line += fmt::format("  {} {:.4f}", static_cast<char>('A' + s), last.value[s]);
        lines.push_back(std::move(line));
    }
    drawOverlay(image, lines);
    if (auto error = state.recording->writer->write(image)) {
        // A resized window changes the frame size: the video so far is kept.
        spdlog::warn("{}", *error);
        stopRecording(state);
        state.status = *error + "; recording stopped";
    }
}

} // namespace snowcap
