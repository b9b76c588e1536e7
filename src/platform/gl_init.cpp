#include "platform/gl_context.hpp"

#include <cstdlib>
#include <glad/gl.h>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace snowcap {

namespace {

// $SNOWCAP_GL_ERRORS=fatal (tools/gpu-check sets it): a GL error in a debug context stops the
// process at the call that caused it, so no check passes over one.
bool glErrorsAreFatal() {
    const char* value = std::getenv("SNOWCAP_GL_ERRORS");
    return value && std::string(value) == "fatal";
}

void GLAPIENTRY logDebugMessage(GLenum source, GLenum type, GLuint id, GLenum severity,
                                GLsizei length, const GLchar* message, const void* fatal) {
    (void)source;
    (void)length;
    if (type == GL_DEBUG_TYPE_ERROR && fatal) {
        spdlog::critical("GL[{}]: {} (SNOWCAP_GL_ERRORS=fatal: stopping here)", id, message);
        std::abort();
    }
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

// Snow Deformation warns that float formats are not renderable or blendable everywhere.
// snowcap's snow buffers are R16F / RGBA16F render targets, so colour-renderable is needed
// before anything runs. Blending is not: nothing blends into them (the only blended pass,
// falling snow, draws into the RGBA8 picture), so a driver that reports less than full blend
// support (GL_CAVEAT_SUPPORT, say) gets a warning, not a refusal.
struct FloatFormatSupport {
    std::string missing;                 // why snowcap cannot run; empty when it can
    std::vector<std::string> notBlended; // formats without full blend support
};

FloatFormatSupport floatFormatSupport() {
    struct Format {
        GLenum internal;
        const char* name;
    };
    FloatFormatSupport support;
    for (Format format : {Format{GL_R16F, "R16F"}, Format{GL_RGBA16F, "RGBA16F"}}) {
        GLint renderable = GL_NONE, blendable = GL_NONE;
        glGetInternalformativ(GL_TEXTURE_2D, format.internal, GL_FRAMEBUFFER_RENDERABLE, 1,
                              &renderable);
        glGetInternalformativ(GL_TEXTURE_2D, format.internal, GL_FRAMEBUFFER_BLEND, 1, &blendable);
        if (renderable != GL_FULL_SUPPORT) {
            support.missing = std::string(format.name) + " is not colour-renderable";
            return support;
        }
        if (blendable != GL_FULL_SUPPORT)
            support.notBlended.push_back(format.name);
    }
    return support;
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
        // The user pointer says whether errors are fatal: any non-null address does.
        static const int fatal = 1;
        glDebugMessageCallback(logDebugMessage, glErrorsAreFatal() ? &fatal : nullptr);
    }
    const FloatFormatSupport floats = floatFormatSupport();
    if (!floats.missing.empty())
        return ContextError{platform + ": " + floats.missing + " on " + info.renderer +
                            "; snowcap's snow buffers need it (see docs/building.md)"};
    for (const std::string& format : floats.notBlended)
        spdlog::warn("{} reports {} without full blend support; snowcap does not blend into it",
                     info.renderer, format);
    return info;
}

int queryMaxTessellationLevel() {
    GLint level = 1;
    glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &level);
    return level;
}

} // namespace snowcap

namespace snowcap {

std::vector<GlLimit> queryGlLimits() {
    struct Query {
        GLenum name;
        const char* spelled;
        int count; // indexed queries (the three axes of a compute limit) take 3
        const char* usedBy;
    };
    static const Query kQueries[] = {
        {GL_MAX_TEXTURE_SIZE, "GL_MAX_TEXTURE_SIZE", 1,
         "sim buffers up to 8192 texels a side (quality ultra)"},
        {GL_MAX_COMPUTE_WORK_GROUP_COUNT, "GL_MAX_COMPUTE_WORK_GROUP_COUNT", 3,
         "the snowpack's and weather's dispatches; the tile lists' grow with the buffer"},
        {GL_MAX_COMPUTE_WORK_GROUP_SIZE, "GL_MAX_COMPUTE_WORK_GROUP_SIZE", 3,
         "local sizes up to 256 (16x16 and 256x1)"},
        {GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", 1,
         "256 invocations a group"},
        {GL_MAX_DRAW_BUFFERS, "GL_MAX_DRAW_BUFFERS", 1,
         "the accumulate pass writes one output a sim, up to 8"},
        {GL_MAX_TEXTURE_IMAGE_UNITS, "GL_MAX_TEXTURE_IMAGE_UNITS", 1,
         "the accumulate pass samples 8 previous buffers at units 4..11"},
        {GL_MAX_IMAGE_UNITS, "GL_MAX_IMAGE_UNITS", 1, "the snowpack's and weather's image stores"},
        {GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", 1,
         "storage buffers at bindings up to 10"},
        {GL_MAX_SHADER_STORAGE_BLOCK_SIZE, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1,
         "the plough's quanta and the tile lists grow with the buffer's texels"},
        {GL_MAX_UNIFORM_BLOCK_SIZE, "GL_MAX_UNIFORM_BLOCK_SIZE", 1,
         "std140 blocks, the largest (accumulate: 8 sims) under 1 KiB"},
        {GL_MAX_TESS_GEN_LEVEL, "GL_MAX_TESS_GEN_LEVEL", 1,
         "displacement = tessellation subdivides a patch this far at most"},
    };
    std::vector<GlLimit> limits;
    for (const Query& query : kQueries) {
        std::string value;
        for (int i = 0; i < query.count; ++i) {
            GLint64 v = 0;
            if (query.count == 1)
                glGetInteger64v(query.name, &v);
            else
                glGetInteger64i_v(query.name, static_cast<GLuint>(i), &v);
            value += (i ? " " : "") + std::to_string(v);
        }
        limits.push_back({query.spelled, value, query.usedBy});
    }
    return limits;
}

} // namespace snowcap
