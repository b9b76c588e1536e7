#include "gpu/objects.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdio>

namespace snowcap::gpu {

namespace {

std::array<std::atomic<int>, kObjectKindCount> gLiveCounts{};

void destroyName(ObjectKind kind, GLuint name) {
    switch (kind) {
    case ObjectKind::Buffer:
        glDeleteBuffers(1, &name);
        break;
    case ObjectKind::Texture:
        glDeleteTextures(1, &name);
        break;
    case ObjectKind::Framebuffer:
        glDeleteFramebuffers(1, &name);
        break;
    case ObjectKind::Program:
        glDeleteProgram(name);
        break;
    case ObjectKind::Shader:
        glDeleteShader(name);
        break;
    case ObjectKind::VertexArray:
        glDeleteVertexArrays(1, &name);
        break;
    case ObjectKind::Sampler:
        glDeleteSamplers(1, &name);
        break;
    case ObjectKind::Query:
        glDeleteQueries(1, &name);
        break;
    }
}

} // namespace

int liveCount(ObjectKind kind) {
    return gLiveCounts[static_cast<int>(kind)];
}

int totalLiveCount() {
    int total = 0;
    for (const auto& count : gLiveCounts)
        total += count;
    return total;
}

template <ObjectKind Kind> UniqueName<Kind>::UniqueName(GLuint name) : name_(name) {
    if (name_)
        ++gLiveCounts[static_cast<int>(Kind)];
}

template <ObjectKind Kind> void UniqueName<Kind>::reset() {
    if (name_) {
        destroyName(Kind, name_);
        --gLiveCounts[static_cast<int>(Kind)];
        name_ = 0;
    }
}

template class UniqueName<ObjectKind::Buffer>;
template class UniqueName<ObjectKind::Texture>;
template class UniqueName<ObjectKind::Framebuffer>;
template class UniqueName<ObjectKind::Program>;
template class UniqueName<ObjectKind::Shader>;
template class UniqueName<ObjectKind::VertexArray>;
template class UniqueName<ObjectKind::Sampler>;
template class UniqueName<ObjectKind::Query>;

void label(GLenum identifier, GLuint name, std::string_view text) {
    if (GLAD_GL_KHR_debug && !text.empty())
        glObjectLabel(identifier, name, static_cast<GLsizei>(text.size()), text.data());
}

// ---- Buffer -----------------------------------------------------------------------------

Buffer::Buffer(std::size_t bytes, const void* data, std::string_view name) : bytes_(bytes) {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    name_ = UniqueName<ObjectKind::Buffer>(id);
    glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), data, GL_DYNAMIC_STORAGE_BIT);
    label(GL_BUFFER, id, name);
}

void Buffer::update(std::size_t offset, std::size_t bytes, const void* data) {
    assert(offset + bytes <= bytes_);
    glNamedBufferSubData(id(), static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

// ---- Texture2D --------------------------------------------------------------------------

TextureFormatInfo formatInfo(TextureFormat format) {
    switch (format) {
    case TextureFormat::R16F:
        return {GL_R16F, 1, 2, "R16F"};
    case TextureFormat::RGBA16F:
        return {GL_RGBA16F, 4, 8, "RGBA16F"};
    case TextureFormat::R32F:
        return {GL_R32F, 1, 4, "R32F"};
    case TextureFormat::RGBA32F:
        return {GL_RGBA32F, 4, 16, "RGBA32F"};
    case TextureFormat::D32F:
        return {GL_DEPTH_COMPONENT32F, 1, 4, "D32F"};
    case TextureFormat::D16:
        return {GL_DEPTH_COMPONENT16, 1, 2, "D16"};
    case TextureFormat::RGBA8:
        return {GL_RGBA8, 4, 4, "RGBA8"};
    case TextureFormat::SRGB8A8:
        return {GL_SRGB8_ALPHA8, 4, 4, "SRGB8_A8"};
    }
    return {GL_NONE, 0, 0, "?"};
}

namespace {

GLenum pixelFormat(TextureFormat format) {
    switch (formatInfo(format).channels) {
    case 1:
        return isDepth(format) ? GL_DEPTH_COMPONENT : GL_RED;
    default:
        return GL_RGBA;
    }
}

} // namespace

namespace {

std::atomic<std::size_t> gTextureByteLimit{0};

std::string describe(int width, int height, TextureFormat format) {
    const double mib =
        static_cast<double>(width) * height * formatInfo(format).bytesPerTexel / (1024.0 * 1024.0);
    char text[96];
    std::snprintf(text, sizeof text, "%dx%d %s (%.0f MiB)", width, height, formatInfo(format).name,
                  mib);
    return text;
}

} // namespace

void setTextureByteLimitForTesting(std::size_t bytes) {
    gTextureByteLimit = bytes;
}

Texture2D::Texture2D(int width, int height, TextureFormat format, std::string_view name, int levels)
    : width_(width), height_(height), levels_(std::max(levels, 1)), format_(format) {
    const std::size_t limit = gTextureByteLimit;
    if (limit > 0 && bytes() > limit) {
        allocationError_ = "cannot allocate " + describe(width, height, format) +
                           ": GL_OUT_OF_MEMORY (test limit)";
        width_ = height_ = 0;
        return;
    }
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
        // drained, so the check below sees this allocation's error only
    }
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    name_ = UniqueName<ObjectKind::Texture>(id);
    glTextureStorage2D(id, levels_, formatInfo(format).internal, width, height);
    if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
        allocationError_ = "cannot allocate " + describe(width, height, format) + ": " +
                           (error == GL_OUT_OF_MEMORY ? std::string("GL_OUT_OF_MEMORY")
                                                      : "GL error " + std::to_string(error));
        name_.reset();
        width_ = height_ = 0;
        return;
    }
    // Snow buffers are addressed texel-exactly; filtering is the sampler's business.
    glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(id, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(id, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    label(GL_TEXTURE, id, name);
}

std::string probeTextures(std::span<const TextureRequest> requests) {
    std::vector<Texture2D> held; // all alive together: the probe asks for the sum
    held.reserve(requests.size());
    for (const TextureRequest& request : requests) {
        held.emplace_back(request.width, request.height, request.format, "probe");
        if (!held.back().allocationError().empty())
            return held.back().allocationError();
    }
    return {};
}

std::size_t Texture2D::bytes() const {
    if (width_ <= 0 || height_ <= 0)
        return 0;
    std::size_t texels = 0;
    for (int level = 0; level < levels_; ++level)
        texels +=
            static_cast<std::size_t>(std::max(width_ >> level, 1)) * std::max(height_ >> level, 1);
    return texels * formatInfo(format_).bytesPerTexel;
}

void Texture2D::clear(float value) {
    const float texel[4] = {value, value, value, value};
    glClearTexImage(id(), 0, pixelFormat(format_), GL_FLOAT, texel);
}

void Texture2D::upload(std::span<const float> texels) {
    assert(texels.size() ==
           static_cast<std::size_t>(width_) * height_ * formatInfo(format_).channels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureSubImage2D(id(), 0, 0, 0, width_, height_, pixelFormat(format_), GL_FLOAT,
                        texels.data());
}

void Texture2D::uploadRgba8(std::span<const std::uint8_t> texels) {
    assert(formatInfo(format_).channels == 4 && !isDepth(format_));
    assert(texels.size() == static_cast<std::size_t>(width_) * height_ * 4);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureSubImage2D(id(), 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
}

std::vector<float> Texture2D::readFloats() const {
    std::vector<float> texels(static_cast<std::size_t>(width_) * height_ *
                              formatInfo(format_).channels);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(id(), 0, pixelFormat(format_), GL_FLOAT,
                      static_cast<GLsizei>(texels.size() * sizeof(float)), texels.data());
    return texels;
}

// ---- Framebuffer ------------------------------------------------------------------------

Framebuffer::Framebuffer(const Texture2D* colour, const Texture2D* depth, std::string_view name) {
    GLuint id = 0;
    glCreateFramebuffers(1, &id);
    name_ = UniqueName<ObjectKind::Framebuffer>(id);
    if (colour) {
        glNamedFramebufferTexture(id, GL_COLOR_ATTACHMENT0, colour->id(), 0);
        width_ = colour->width();
        height_ = colour->height();
    } else {
        glNamedFramebufferDrawBuffer(id, GL_NONE);
        glNamedFramebufferReadBuffer(id, GL_NONE);
    }
    if (depth) {
        glNamedFramebufferTexture(id, GL_DEPTH_ATTACHMENT, depth->id(), 0);
        width_ = depth->width();
        height_ = depth->height();
    }
    label(GL_FRAMEBUFFER, id, name);
}

std::string Framebuffer::completeness() const {
    switch (glCheckNamedFramebufferStatus(id(), GL_FRAMEBUFFER)) {
    case GL_FRAMEBUFFER_COMPLETE:
        return {};
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT:
        return "incomplete attachment";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
        return "no attachment";
    case GL_FRAMEBUFFER_UNSUPPORTED:
        return "format combination unsupported";
    default:
        return "incomplete";
    }
}

void Framebuffer::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, id());
    glViewport(0, 0, width_, height_);
}

// ---- small objects ----------------------------------------------------------------------

VertexArray::VertexArray(std::string_view name) {
    GLuint id = 0;
    glCreateVertexArrays(1, &id);
    name_ = UniqueName<ObjectKind::VertexArray>(id);
    label(GL_VERTEX_ARRAY, id, name);
}

Sampler::Sampler(GLenum filter, GLenum wrap, std::string_view name) {
    GLuint id = 0;
    glCreateSamplers(1, &id);
    name_ = UniqueName<ObjectKind::Sampler>(id);
    glSamplerParameteri(id, GL_TEXTURE_MIN_FILTER, filter);
    glSamplerParameteri(id, GL_TEXTURE_MAG_FILTER, filter);
    glSamplerParameteri(id, GL_TEXTURE_WRAP_S, wrap);
    glSamplerParameteri(id, GL_TEXTURE_WRAP_T, wrap);
    label(GL_SAMPLER, id, name);
}

Query::Query(GLenum target) {
    GLuint id = 0;
    glCreateQueries(target, 1, &id);
    name_ = UniqueName<ObjectKind::Query>(id);
}

} // namespace snowcap::gpu
