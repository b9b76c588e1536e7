#include "platform/gl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <spdlog/spdlog.h>
#include <vector>

namespace snowcap {

struct HeadlessContext::Egl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
};

namespace {

bool hasExtension(const char* list, const std::string& name) {
    if (!list)
        return false;
    const std::string all = std::string(" ") + list + " ";
    return all.find(" " + name + " ") != std::string::npos;
}

struct DisplayCandidate {
    EGLDisplay display;
    const char* platform;
    std::string deviceFile; // the DRM node, where the device says
    bool softwareDevice;    // EGL_MESA_device_software
};

// Every display worth trying, in order of preference.
std::vector<DisplayCandidate> candidateDisplays() {
    std::vector<DisplayCandidate> displays;
    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!getPlatformDisplay)
        return displays;

    if (hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
        auto queryDevices =
            reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
        auto queryDeviceString = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
            eglGetProcAddress("eglQueryDeviceStringEXT"));
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (queryDevices && queryDevices(8, devices, &count)) {
            for (EGLint i = 0; i < count; ++i) {
                EGLDisplay display =
                    getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (display == EGL_NO_DISPLAY)
                    continue;
                DisplayCandidate candidate{display, "egl-device", "", false};
                if (queryDeviceString) {
                    const char* extensions = queryDeviceString(devices[i], EGL_EXTENSIONS);
                    candidate.softwareDevice = hasExtension(extensions, "EGL_MESA_device_software");
                    if (hasExtension(extensions, "EGL_EXT_device_drm"))
                        if (const char* file =
                                queryDeviceString(devices[i], EGL_DRM_DEVICE_FILE_EXT))
                            candidate.deviceFile = file;
                }
                displays.push_back(std::move(candidate));
            }
        }
    }
    if (hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay display =
            getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display != EGL_NO_DISPLAY)
            displays.push_back({display, "egl-surfaceless", "", false});
    }
    return displays;
}

// Tries 4.6 then 4.5 core on one display; returns the context or EGL_NO_CONTEXT.
EGLContext createCoreContext(EGLDisplay display, bool debug, std::string& why) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        why = "eglInitialize failed";
        return EGL_NO_CONTEXT;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        why = "no desktop OpenGL API";
        return EGL_NO_CONTEXT;
    }
    // The default surface type (EGL_WINDOW_BIT) finds no config on surfaceless Mesa.
    const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                       EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint configCount = 0;
    if (!eglChooseConfig(display, configAttributes, &config, 1, &configCount) || configCount == 0) {
        why = "no EGL config with EGL_PBUFFER_BIT + EGL_OPENGL_BIT";
        return EGL_NO_CONTEXT;
    }
    for (EGLint minorVersion : {6, 5}) {
        const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                            4,
                                            EGL_CONTEXT_MINOR_VERSION,
                                            minorVersion,
                                            EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                            EGL_CONTEXT_OPENGL_DEBUG,
                                            debug ? EGL_TRUE : EGL_FALSE,
                                            EGL_NONE};
        EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
        if (context != EGL_NO_CONTEXT)
            return context;
    }
    why = "the driver refused OpenGL 4.6 and 4.5 core";
    return EGL_NO_CONTEXT;
}

// A context made current on one candidate, with what its driver says it is. The strings are
// read through eglGetProcAddress, before glad is loaded: glad's pointers belong to the context
// that is finally kept.
struct Probe {
    EGLContext context = EGL_NO_CONTEXT;
    GlDevice device;
};

Probe probe(const DisplayCandidate& candidate, int index, bool debug) {
    Probe result;
    result.device.index = index;
    result.device.platform = candidate.platform;
    result.device.deviceFile = candidate.deviceFile;
    result.device.software = candidate.softwareDevice;
    std::string why;
    result.context = createCoreContext(candidate.display, debug, why);
    if (result.context == EGL_NO_CONTEXT) {
        result.device.whyNot = why;
        return result;
    }
    if (!eglMakeCurrent(candidate.display, EGL_NO_SURFACE, EGL_NO_SURFACE, result.context)) {
        result.device.whyNot = "eglMakeCurrent without a surface failed";
        eglDestroyContext(candidate.display, result.context);
        result.context = EGL_NO_CONTEXT;
        return result;
    }
    using GetString = const unsigned char* (*)(unsigned int);
    auto getString = reinterpret_cast<GetString>(eglGetProcAddress("glGetString"));
    const auto text = [getString](unsigned int name) {
        const unsigned char* value = getString ? getString(name) : nullptr;
        return value ? std::string(reinterpret_cast<const char*>(value)) : std::string();
    };
    GlInfo& gl = result.device.gl;
    gl.platform = candidate.platform;
    gl.vendor = text(0x1F00);   // GL_VENDOR
    gl.renderer = text(0x1F01); // GL_RENDERER
    gl.version = text(0x1F02);  // GL_VERSION
    result.device.software = result.device.software || isSoftwareRenderer(gl.renderer);
    result.device.usable = true;
    return result;
}

void release(EGLDisplay display, EGLContext context) {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context != EGL_NO_CONTEXT)
        eglDestroyContext(display, context);
    eglTerminate(display);
}

std::string describe(const GlDevice& device) {
    std::string text = std::to_string(device.index) + " (" + device.platform;
    if (!device.deviceFile.empty())
        text += " " + device.deviceFile;
    text += ", " + (device.gl.renderer.empty() ? std::string("no renderer") : device.gl.renderer);
    return text + (device.software ? ", software)" : ")");
}

} // namespace

bool isSoftwareRenderer(const std::string& renderer) {
    for (const char* name : {"llvmpipe", "softpipe", "swrast", "Software Rasterizer"})
        if (renderer.find(name) != std::string::npos)
            return true;
    return false;
}

std::variant<GlDeviceChoice, ContextError> parseGlDeviceChoice(const std::string& text) {
    if (text.empty() || text == "auto")
        return GlDeviceChoice{};
    int index = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
    if (error != std::errc() || end != text.data() + text.size() || index < 0)
        return ContextError{"GL device '" + text +
                            "': expected auto or a device number that `snowcap gl-info` lists"};
    return GlDeviceChoice{index};
}

std::vector<GlDevice> listGlDevices() {
    std::vector<GlDevice> devices;
    const std::vector<DisplayCandidate> candidates = candidateDisplays();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        Probe probed = probe(candidates[i], static_cast<int>(i), false);
        release(candidates[i].display, probed.context);
        devices.push_back(std::move(probed.device));
    }
    return devices;
}

std::variant<ChosenGlDevice, ContextError> chooseGlDevice(const std::vector<GlDevice>& devices,
                                                          GlDeviceChoice choice) {
    const int count = static_cast<int>(devices.size());
    if (choice.index >= count)
        return ContextError{"GL device " + std::to_string(choice.index) + ": there are " +
                            std::to_string(count) +
                            " (numbered from 0; `snowcap gl-info` lists them)"};
    std::string tried;
    std::optional<int> software; // the first software device that works
    for (const GlDevice& device : devices) {
        if (choice.index >= 0 && device.index != choice.index)
            continue;
        if (!device.usable) {
            tried += (tried.empty() ? "" : "; ") + device.platform + ": " + device.whyNot;
            continue;
        }
        if (choice.index >= 0)
            return ChosenGlDevice{device.index, "as asked"};
        if (!device.software)
            return ChosenGlDevice{device.index, software ? "auto, passing software device " +
                                                               std::to_string(*software) + " by"
                                                         : "auto, the first device"};
        if (!software)
            software = device.index;
    }
    if (software)
        return ChosenGlDevice{*software, "auto; no device but a software one gives 4.5 core"};
    if (tried.empty())
        tried = "no EGL device or surfaceless platform available";
    return ContextError{"no headless OpenGL 4.5 context (tried " + tried +
                        "); install Mesa (libegl-mesa0 libgl1-mesa-dri) or a GPU driver with EGL"};
}

std::variant<std::unique_ptr<HeadlessContext>, ContextError>
HeadlessContext::create(bool debug, const std::string& device) {
    std::string requested = device;
    const char* fromEnvironment = std::getenv(kGlDeviceVariable);
    if (requested.empty() && fromEnvironment)
        requested = fromEnvironment;
    auto parsed = parseGlDeviceChoice(requested);
    if (auto* error = std::get_if<ContextError>(&parsed))
        return ContextError{(device.empty() ? std::string(kGlDeviceVariable) : "--gl-device") +
                            ": " + error->message};
    const GlDeviceChoice choice = std::get<GlDeviceChoice>(parsed);

    // Every candidate (or the one asked for) is probed, its context kept until the choice is
    // made; then the others are let go.
    const std::vector<DisplayCandidate> candidates = candidateDisplays();
    std::vector<Probe> probes;
    std::vector<GlDevice> devices;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (choice.index >= 0 && static_cast<int>(i) != choice.index) {
            probes.push_back({}); // not tried
            GlDevice skipped;
            skipped.index = static_cast<int>(i);
            skipped.platform = candidates[i].platform;
            skipped.whyNot = "not asked for";
            devices.push_back(skipped);
            continue;
        }
        probes.push_back(probe(candidates[i], static_cast<int>(i), debug));
        devices.push_back(probes.back().device);
    }
    auto chosen = chooseGlDevice(devices, choice);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const bool kept = std::holds_alternative<ChosenGlDevice>(chosen) &&
                          std::get<ChosenGlDevice>(chosen).index == static_cast<int>(i);
        const bool tried = choice.index < 0 || static_cast<int>(i) == choice.index;
        if (!kept && tried)
            release(candidates[i].display, probes[i].context);
    }
    if (auto* error = std::get_if<ContextError>(&chosen))
        return *error;
    const ChosenGlDevice& choiceMade = std::get<ChosenGlDevice>(chosen);

    const DisplayCandidate& candidate = candidates[static_cast<std::size_t>(choiceMade.index)];
    const Probe& kept = probes[static_cast<std::size_t>(choiceMade.index)];
    eglMakeCurrent(candidate.display, EGL_NO_SURFACE, EGL_NO_SURFACE, kept.context);
    auto getProc = [](const char* name) {
        return reinterpret_cast<void*>(eglGetProcAddress(name));
    };
    auto initialised = initialiseCurrentContext(getProc, candidate.platform, debug);
    if (auto* error = std::get_if<ContextError>(&initialised)) {
        release(candidate.display, kept.context);
        return *error;
    }
    std::unique_ptr<HeadlessContext> result(new HeadlessContext());
    result->egl_ = std::make_unique<Egl>(Egl{candidate.display, kept.context});
    result->info_ = std::get<GlInfo>(initialised);
    result->info_.device = describe(kept.device) + " of " + std::to_string(candidates.size()) +
                           ": " + choiceMade.reason;
    spdlog::info("GL device {}", result->info_.device);
    return result;
}

HeadlessContext::~HeadlessContext() {
    if (egl_ && egl_->display != EGL_NO_DISPLAY) {
        eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(egl_->display, egl_->context);
        eglTerminate(egl_->display);
    }
}

void HeadlessContext::makeCurrent() {
    eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_->context);
}

} // namespace snowcap
