#pragma once
// OpenGL contexts. Only src/platform/ touches EGL and GLFW; everything above works on "a current
// GL 4.5+ core context" and does not care whether it came from a window or from EGL.

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct GlInfo {
    std::string vendor, renderer, version;
    int major = 0, minor = 0;
    std::string platform;          // "egl-device", "egl-surfaceless", "glfw"
    std::string halfStoreRounding; // filled by whoever probes it (gpu/half_store_probe.hpp)
    std::string device;            // the EGL device used and why (headless contexts)
    bool isLlvmpipe() const { return renderer.find("llvmpipe") != std::string::npos; }
};

// The one-line reason a context could not be had, with what was tried and what to do.
struct ContextError {
    std::string message;
};

// One display EGL offers for a headless context, as `snowcap gl-info` lists it. Probing makes a
// context on it, reads what it is and destroys it again.
struct GlDevice {
    int index = 0;          // what --gl-device N names: the order candidates are tried in
    std::string platform;   // "egl-device" or "egl-surfaceless"
    std::string deviceFile; // the DRM node, where EGL says (EGL_EXT_device_drm)
    GlInfo gl;              // vendor, renderer, version; empty when no context was had
    bool usable = false;    // gives a 4.5 core context
    std::string whyNot;     // when it does not
    bool software = false;  // a CPU rasteriser: llvmpipe, softpipe, swrast
};

// Every display worth trying, in the order they are tried: the EGL device platform first
// (NVIDIA and other GPUs without a display; Mesa lists its software device there too), then
// Mesa's surfaceless platform.
std::vector<GlDevice> listGlDevices();

// Whether a GL_RENDERER string names a CPU rasteriser.
bool isSoftwareRenderer(const std::string& renderer);

// Which device a headless context is made on: "auto" or a number from listGlDevices(). Empty:
// $SNOWCAP_GL_DEVICE, else auto (`--gl-device` sets that variable, so processes the program
// starts make the same choice). Auto takes the first device that gives a 4.5 core context and
// is not software; a software one only when no other works.
struct GlDeviceChoice {
    int index = -1; // -1: auto
};
std::variant<GlDeviceChoice, ContextError> parseGlDeviceChoice(const std::string& text);

// The device `choice` picks from probed `devices`, and why; nullopt when none can be used (the
// ContextError says what was tried).
struct ChosenGlDevice {
    int index = 0;
    std::string reason; // "as asked", or what auto passed by
};
std::variant<ChosenGlDevice, ContextError> chooseGlDevice(const std::vector<GlDevice>& devices,
                                                          GlDeviceChoice choice);
inline constexpr const char* kGlDeviceVariable = "SNOWCAP_GL_DEVICE";

// A headless context from EGL on the chosen device. Core 4.6 is asked for, 4.5 accepted.
// Nothing is drawn to a surface: all rendering goes into framebuffer objects. The choice is
// logged once, with the reason when auto passed a device by.
class HeadlessContext {
public:
    static std::variant<std::unique_ptr<HeadlessContext>, ContextError>
    create(bool debug, const std::string& device = {});
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

// A limit of the current context that snowcap relies on, and what relies on it.
struct GlLimit {
    std::string name;   // the GL enum's name
    std::string value;  // as queried; several values separated by spaces
    std::string usedBy; // what in snowcap needs it, and how much
};
std::vector<GlLimit> queryGlLimits();

// Loads GL entry points for the current context, reads GL_VERSION and friends and checks what
// snowcap needs (4.5 core, renderable + blendable R16F/RGBA16F). Returns the reason on failure.
std::variant<GlInfo, ContextError>
initialiseCurrentContext(void* (*getProc)(const char*), const std::string& platform, bool debug);

} // namespace snowcap
