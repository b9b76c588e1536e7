#include "viewer/viewer_input.hpp"

#include "viewer/viewer_views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <imgui.h>
#include <spdlog/spdlog.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> // key codes: ImGui 1.86's io.KeysDown is indexed by them

namespace snowcap {

namespace {

// The mouse in framebuffer pixels, GL rows (bottom-left origin).
glm::dvec2 mousePixel(int height) {
    const ImGuiIO& io = ImGui::GetIO();
    return {io.MousePos.x * io.DisplayFramebufferScale.x,
            height - io.MousePos.y * io.DisplayFramebufferScale.y};
}

// Distance from the mouse to the divider of a split layout, in pixels (large when none).
double dividerDistance(const ViewerState& state, int width, int height, glm::dvec2 pixel) {
    const glm::ivec4 area = sceneArea(state, width, height);
    if (state.layout == CompareLayout::SplitVertical)
        return std::abs(pixel.x - area.x - state.divider * area.z);
    if (state.layout == CompareLayout::SplitHorizontal)
        return std::abs((height - pixel.y) - state.divider * area.w);
    return 1e9;
}

// The sim of the pane under the pixel (-1: the difference view), A between panes.
int paneUnder(const ViewerState& state, int width, int height, glm::dvec2 pixel) {
    const std::optional<Pane> pane = paneAt(state, width, height, pixel);
    return pane ? pane->sim : 0;
}

} // namespace

bool ViewerInput::handle(Lab& lab, ViewerState& state, int width, int height,
                         std::span<const Window::KeyEvent> keyEvents) {
    mouse(lab, state, width, height);
    const bool quit = keys(lab, state, keyEvents);
    if (state.throwRequested) {
        state.throwRequested = false;
        const glm::dvec2 aim = state.throwAtPixel.value_or(mousePixel(height));
        state.throwAtPixel.reset();
        if (auto error = throwSnowball(state, lab, width, height, aim)) {
            state.throwNote = *error;
            spdlog::warn("{}", *error);
        } else {
            char note[96];
            std::snprintf(note, sizeof note, "threw a snowball at %.1f s (%.0f cm/s)", lab.timeS(),
                          state.throwSpeedCmS);
            state.throwNote = note;
        }
    }
    return quit;
}

void ViewerInput::mouse(Lab& lab, ViewerState& state, int width, int height) {
    const ImGuiIO& io = ImGui::GetIO();
    const glm::dvec2 pixel = mousePixel(height);
    const bool overScene = !io.WantCaptureMouse;
    const bool nearDivider = overScene && dividerDistance(state, width, height, pixel) < 5.0;
    if (nearDivider || draggingDivider_)
        ImGui::SetMouseCursor(state.layout == CompareLayout::SplitVertical
                                  ? ImGuiMouseCursor_ResizeEW
                                  : ImGuiMouseCursor_ResizeNS);
    if (overScene && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && nearDivider)
        draggingDivider_ = true;
    if (overScene &&
        (ImGui::IsMouseClicked(0) || ImGui::IsMouseClicked(1) || ImGui::IsMouseClicked(2))) {
        const int sim = paneUnder(state, width, height, pixel);
        dragCamera_ = state.linkedCameras || sim < 0 ? 0 : sim;
    }
    if (!ImGui::IsMouseDown(0) && !ImGui::IsMouseDown(1) && !ImGui::IsMouseDown(2)) {
        draggingDivider_ = false;
        dragCamera_ = -1;
    }
    if (draggingDivider_) {
        const glm::ivec4 area = sceneArea(state, width, height);
        state.divider = static_cast<float>(state.layout == CompareLayout::SplitVertical
                                               ? (pixel.x - area.x) / area.z
                                               : 1.0 - pixel.y / area.w);
        state.divider = std::clamp(state.divider, 0.05f, 0.95f);
        return;
    }
    // A click without a drag places the decay probe where the ray meets the snow.
    if (overScene && ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
        io.MouseDragMaxDistanceSqr[0] < 9.0f) {
        placeProbe(state, lab, pickSurface(state, lab, width, height, pixel),
                   std::max(paneUnder(state, width, height, pixel), 0));
    }
    if (dragCamera_ >= 0) {
        OrbitView& camera = state.cameras[dragCamera_];
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
            camera.yawDeg -= io.MouseDelta.x * 0.3;
            camera.pitchDeg = std::clamp(camera.pitchDeg + io.MouseDelta.y * 0.3, 5.0, 89.0);
        }
        if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
            ImGui::IsMouseDragging(ImGuiMouseButton_Middle)) {
            const double yaw = glm::radians(camera.yawDeg);
            const double scale = camera.distanceCm * 0.0015;
            camera.targetCm[0] -=
                (std::cos(yaw) * io.MouseDelta.x - std::sin(yaw) * io.MouseDelta.y) * scale;
            camera.targetCm[1] -=
                (std::sin(yaw) * io.MouseDelta.x + std::cos(yaw) * io.MouseDelta.y) * scale;
        }
    }
    if (overScene && io.MouseWheel != 0.0f) {
        const int sim = paneUnder(state, width, height, pixel);
        OrbitView& camera = state.cameras[state.linkedCameras || sim < 0 ? 0 : sim];
        camera.distanceCm = std::clamp(camera.distanceCm * std::pow(0.9, io.MouseWheel), 20.0, 1e5);
    }
}

bool ViewerInput::keys(Lab& lab, ViewerState& state, std::span<const Window::KeyEvent> keyEvents) {
    state.playerInput = glm::vec2(0.0f);
    state.playerRuns = false;
    state.driveAxes = glm::vec2(0.0f);
    // Typing into a panel's field: the keys are the field's (the events are dropped).
    if (ImGui::GetIO().WantCaptureKeyboard)
        return false;
    if (lab.hasPlayer()) {
        // Walking is a held state, so it is polled: W walks away from the camera, D to its
        // right, whatever way the orbit camera faces.
        const double yaw = glm::radians(state.cameras[0].yawDeg);
        const glm::vec2 forward(-std::sin(yaw), std::cos(yaw)), right(std::cos(yaw), std::sin(yaw));
        glm::vec2 input(0.0f);
        input += forward * float(ImGui::IsKeyDown(GLFW_KEY_W) - ImGui::IsKeyDown(GLFW_KEY_S));
        input += right * float(ImGui::IsKeyDown(GLFW_KEY_D) - ImGui::IsKeyDown(GLFW_KEY_A));
        if (glm::length(input) > 1.0f)
            input = glm::normalize(input);
        state.playerInput = input;
        state.playerRuns =
            ImGui::IsKeyDown(GLFW_KEY_LEFT_SHIFT) || ImGui::IsKeyDown(GLFW_KEY_RIGHT_SHIFT);
    }
    if (lab.hasPlayerVehicle()) {
        // A vehicle is steered from its own seat: W/S throttle, A/D steer, whatever the camera.
        state.driveAxes = {float(ImGui::IsKeyDown(GLFW_KEY_D) - ImGui::IsKeyDown(GLFW_KEY_A)),
                           float(ImGui::IsKeyDown(GLFW_KEY_W) - ImGui::IsKeyDown(GLFW_KEY_S))};
    }
    bool quit = false;
    for (const Window::KeyEvent& event : keyEvents) {
        const bool press = event.action == GLFW_PRESS;
        if (event.key == GLFW_KEY_PERIOD && (press || event.action == GLFW_REPEAT)) {
            state.stepOnce = true; // held, it steps at the key-repeat rate
            spdlog::debug("key .: step");
        }
        if (!press)
            continue;
        // Logged at debug level (`snowcap -v view`): what each press did, one line per press.
        auto did = [&](const char* key, const std::string& what) {
            spdlog::debug("key {}: {}", key, what);
        };
        switch (event.key) {
        case GLFW_KEY_SPACE:
            state.paused = !state.paused;
            did("Space", state.paused ? "paused" : "running");
            break;
        case GLFW_KEY_R:
            state.restartRequested = true;
            did("R", "restart");
            break;
        case GLFW_KEY_F5:
            state.reloadShaders = true;
            did("F5", "reload shaders");
            break;
        case GLFW_KEY_F12:
            state.screenshotRequested = true;
            did("F12", "screenshot");
            break;
        case GLFW_KEY_F:
            state.followPlayer = !state.followPlayer;
            did("F", state.followPlayer ? "follow the player" : "stop following");
            break;
        case GLFW_KEY_T:
            state.throwRequested = true;
            did("T", "throw a snowball");
            break;
        case GLFW_KEY_V:
            state.vsync = !state.vsync;
            did("V", state.vsync ? "vsync on" : "vsync off");
            break;
        case GLFW_KEY_TAB:
            state.sideBarShown = !state.sideBarShown;
            did("Tab", state.sideBarShown ? "side bar shown" : "side bar hidden");
            break;
        case GLFW_KEY_ESCAPE:
            quit = true;
            did("Esc", "quit");
            break;
        default:
            if (event.key >= GLFW_KEY_1 && event.key <= GLFW_KEY_6) {
                state.layout = static_cast<CompareLayout>(event.key - GLFW_KEY_1);
                did(std::to_string(event.key - GLFW_KEY_1 + 1).c_str(),
                    "layout " + std::to_string(event.key - GLFW_KEY_1 + 1));
            }
        }
    }
    return quit;
}

} // namespace snowcap
