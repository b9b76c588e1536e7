#pragma once
// OpenGL contexts. Only src/platform/ touches EGL and GLFW; everything above works on "a current
// GL 4.5+ core context" and does not care whether it came from a window or from EGL.

#include <memory>
#include <string>
#include <variant>

namespace snowcap {

struct GlInfo {
    std::string vendor, renderer, version;
    int major = 0, minor = 0;
    std::string platform;          // "egl-device", "egl-surfaceless", "glfw"
    std::string halfStoreRounding; // filled by whoever probes it (gpu/half_store_probe.hpp)
    bool isLlvmpipe() const { return renderer.find("llvmpipe") != std::string::npos; }
};

// The one-line reason a context could not be had, with what was tried and what to do.
struct ContextError {
    std::string message;
};

// A headless context from EGL: the device platform first (NVIDIA and other GPUs without a
// display), then Mesa's surfaceless platform (llvmpipe). Core 4.6 is asked for, 4.5 accepted.
// Nothing is drawn to a surface: all rendering goes into framebuffer objects.
class HeadlessContext {
public:
    static std::variant<std::unique_ptr<HeadlessContext>, ContextError> create(bool debug);
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    const GlInfo& info() const { return info_; }
    void makeCurrent();

private:
    HeadlessContext() = default;
    struct Egl;
    std::unique_ptr<Egl> egl_;
    GlInfo info_;
};

// The current context's GL_MAX_TESS_GEN_LEVEL (a capability, read once by whoever needs it).
int queryMaxTessellationLevel();

// Loads GL entry points for the current context, reads GL_VERSION and friends and checks what
// snowcap needs (4.5 core, renderable + blendable R16F/RGBA16F). Returns the reason on failure.
std::variant<GlInfo, ContextError>
initialiseCurrentContext(void* (*getProc)(const char*), const std::string& platform, bool debug);

} // namespace snowcap
