#pragma once
// A desktop window with a GL 4.6 (or 4.5) core context, through GLFW.

#include "platform/gl_context.hpp"

#include <memory>
#include <string>
#include <variant>
#include <vector>

struct GLFWwindow;

namespace snowcap {

class Window {
public:
    // Fails with one line when there is no display or no 4.5 core context.
    static std::variant<std::unique_ptr<Window>, ContextError>
    create(const std::string& title, int width, int height, bool debug);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    const GlInfo& info() const { return info_; }
    GLFWwindow* handle() const { return window_; }
    bool shouldClose() const;
    void requestClose();
    void swapBuffers();
    void pollEvents();
    // Sleeps until an event arrives (a minimised window must not spin).
    void waitEvents();
    bool iconified() const;
    // Paths of files dropped onto the window since the last call.
    std::vector<std::string> takeDroppedPaths();
    // One key event as GLFW reports it (GLFW_KEY_*, GLFW_PRESS / REPEAT / RELEASE, GLFW_MOD_*).
    struct KeyEvent {
        int key = 0, action = 0, mods = 0;
    };
    // Key events since the last call, in order. They come from GLFW's key callback, installed
    // when the window is made, so a GUI backend initialised later (ImGui's installs its own
    // and chains the one it finds) sees the same events: a press and release between two
    // frames is two events here, where the per-frame key state shows neither.
    std::vector<KeyEvent> takeKeyEvents();
    void setVsync(bool on);
    int framebufferWidth() const;
    int framebufferHeight() const;
    double timeSeconds() const;

private:
    Window() = default;
    GLFWwindow* window_ = nullptr;
    GlInfo info_;
    std::vector<std::string> dropped_;
    std::vector<KeyEvent> keys_;
};

// True when a windowing system is reachable (DISPLAY or WAYLAND_DISPLAY set).
bool displayAvailable();

} // namespace snowcap
