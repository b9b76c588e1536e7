#include "platform/window.hpp"

#include <cstdlib>
#include <utility>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

std::string lastGlfwError() {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : "unknown GLFW error";
}

} // namespace

bool displayAvailable() {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

std::variant<std::unique_ptr<Window>, ContextError>
Window::create(const std::string& title, int width, int height, bool debug) {
    if (!glfwInit())
        return ContextError{"glfw: cannot start (" + lastGlfwError() +
                            "); no display? run `snowcap render` for headless output"};
    GLFWwindow* window = nullptr;
    for (int minor : {6, 5}) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, debug ? GLFW_TRUE : GLFW_FALSE);
        window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
        if (window)
            break;
    }
    if (!window) {
        std::string why = lastGlfwError();
        glfwTerminate();
        return ContextError{"glfw: no OpenGL 4.6 or 4.5 core window (" + why +
                            "); update the driver or Mesa, or run `snowcap render` headless"};
    }
    glfwMakeContextCurrent(window);
    auto getProc = [](const char* name) {
        return reinterpret_cast<void*>(glfwGetProcAddress(name));
    };
    auto initialised = initialiseCurrentContext(getProc, "glfw", debug);
    if (auto* error = std::get_if<ContextError>(&initialised)) {
        glfwDestroyWindow(window);
        glfwTerminate();
        return *error;
    }
    std::unique_ptr<Window> result(new Window());
    result->window_ = window;
    glfwSetWindowUserPointer(window, result.get());
    glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
        auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
        for (int i = 0; i < count; ++i)
            self->dropped_.emplace_back(paths[i]);
    });
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
        auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
        if (self->keys_.size() < 1024) // a frame that never comes must not grow this forever
            self->keys_.push_back({key, action, mods});
    });
    result->info_ = std::get<GlInfo>(initialised);
    return result;
}

Window::~Window() {
    if (window_) {
        glfwDestroyWindow(window_);
        glfwTerminate();
    }
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(window_);
}
void Window::requestClose() {
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
}
void Window::swapBuffers() {
    glfwSwapBuffers(window_);
}
void Window::pollEvents() {
    glfwPollEvents();
}
void Window::waitEvents() {
    glfwWaitEvents();
}
bool Window::iconified() const {
    return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) == GLFW_TRUE;
}
std::vector<std::string> Window::takeDroppedPaths() {
    return std::exchange(dropped_, {});
}
std::vector<Window::KeyEvent> Window::takeKeyEvents() {
    return std::exchange(keys_, {});
}
void Window::setVsync(bool on) {
    glfwSwapInterval(on ? 1 : 0);
}
double Window::timeSeconds() const {
    return glfwGetTime();
}

int Window::framebufferWidth() const {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return width;
}

int Window::framebufferHeight() const {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return height;
}

} // namespace snowcap
