#include "platform/gl_context.hpp"

#include <glad/gl.h>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

void GLAPIENTRY logDebugMessage(GLenum source, GLenum type, GLuint id, GLenum severity,
                                GLsizei length, const GLchar* message, const void*) {
    (void)source;
    (void)length;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
        return spdlog::trace("GL[{}]: {}", id, message);
    if (type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH)
        return spdlog::error("GL[{}]: {}", id, message);
    if (severity == GL_DEBUG_SEVERITY_MEDIUM)
        return spdlog::warn("GL[{}]: {}", id, message);
    spdlog::debug("GL[{}]: {}", id, message);
}

std::string glString(GLenum name) {
    const auto* text = reinterpret_cast<const char*>(glGetString(name));
    return text ? text : "";
}

// Snow Deformation warns that float formats are not renderable or blendable everywhere; snowcap's
// buffers are R16F / RGBA16F render targets, so check both properties before anything runs.
std::string missingFloatFormatSupport() {
    struct Format {
        GLenum internal;
        const char* name;
    };
    for (Format format : {Format{GL_R16F, "R16F"}, Format{GL_RGBA16F, "RGBA16F"}}) {
        GLint renderable = GL_NONE, blendable = GL_NONE;
        glGetInternalformativ(GL_TEXTURE_2D, format.internal, GL_FRAMEBUFFER_RENDERABLE, 1,
                              &renderable);
        glGetInternalformativ(GL_TEXTURE_2D, format.internal, GL_FRAMEBUFFER_BLEND, 1, &blendable);
        if (renderable != GL_FULL_SUPPORT)
            return std::string(format.name) + " is not colour-renderable";
        if (blendable != GL_FULL_SUPPORT)
            return std::string(format.name) + " is not blendable";
    }
    return {};
}

} // namespace

std::variant<GlInfo, ContextError>
initialiseCurrentContext(void* (*getProc)(const char*), const std::string& platform, bool debug) {
    const int loaded = gladLoadGL(reinterpret_cast<GLADloadfunc>(getProc));
    if (loaded == 0)
        return ContextError{platform + ": could not load OpenGL entry points"};

    GlInfo info;
    info.platform = platform;
    info.vendor = glString(GL_VENDOR);
    info.renderer = glString(GL_RENDERER);
    info.version = glString(GL_VERSION);
    glGetIntegerv(GL_MAJOR_VERSION, &info.major);
    glGetIntegerv(GL_MINOR_VERSION, &info.minor);
    if (info.major < 4 || (info.major == 4 && info.minor < 5))
        return ContextError{platform + ": OpenGL " + info.version + " on " + info.renderer +
                            " is below the 4.5 core snowcap needs; update the driver or Mesa"};

    spdlog::info("OpenGL {} | {} | {} ({})", info.version, info.renderer, info.vendor, platform);

    if (debug && GLAD_GL_KHR_debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(logDebugMessage, nullptr);
    }
    if (std::string missing = missingFloatFormatSupport(); !missing.empty())
        return ContextError{platform + ": " + missing + " on " + info.renderer +
                            "; snowcap's snow buffers need it (see docs/building.md)"};
    return info;
}

int queryMaxTessellationLevel() {
    GLint level = 1;
    glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &level);
    return level;
}

} // namespace snowcap
