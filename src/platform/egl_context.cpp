#include "platform/gl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
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
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (queryDevices && queryDevices(8, devices, &count)) {
            for (EGLint i = 0; i < count; ++i) {
                EGLDisplay display =
                    getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (display != EGL_NO_DISPLAY)
                    displays.push_back({display, "egl-device"});
            }
        }
    }
    if (hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay display =
            getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display != EGL_NO_DISPLAY)
            displays.push_back({display, "egl-surfaceless"});
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

} // namespace

std::variant<std::unique_ptr<HeadlessContext>, ContextError> HeadlessContext::create(bool debug) {
    std::string tried;
    for (const DisplayCandidate& candidate : candidateDisplays()) {
        std::string why;
        EGLContext context = createCoreContext(candidate.display, debug, why);
        if (context == EGL_NO_CONTEXT) {
            tried += std::string(tried.empty() ? "" : "; ") + candidate.platform + ": " + why;
            eglTerminate(candidate.display);
            continue;
        }
        if (!eglMakeCurrent(candidate.display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
            tried += std::string(tried.empty() ? "" : "; ") + candidate.platform +
                     ": eglMakeCurrent without a surface failed";
            eglDestroyContext(candidate.display, context);
            eglTerminate(candidate.display);
            continue;
        }
        auto getProc = [](const char* name) {
            return reinterpret_cast<void*>(eglGetProcAddress(name));
        };
        auto initialised = initialiseCurrentContext(getProc, candidate.platform, debug);
        if (auto* error = std::get_if<ContextError>(&initialised)) {
            eglMakeCurrent(candidate.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            eglDestroyContext(candidate.display, context);
            eglTerminate(candidate.display);
            return *error;
        }
        std::unique_ptr<HeadlessContext> result(new HeadlessContext());
        result->egl_ = std::make_unique<Egl>(Egl{candidate.display, context});
        result->info_ = std::get<GlInfo>(initialised);
        return result;
    }
    if (tried.empty())
        tried = "no EGL device or surfaceless platform available";
    return ContextError{"no headless OpenGL 4.5 context (tried " + tried +
                        "); install Mesa (libegl-mesa0 libgl1-mesa-dri) or a GPU driver with EGL"};
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
