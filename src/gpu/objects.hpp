#pragma once
// Move-only owners of OpenGL objects: one GL name each, released in the destructor, 0 after a
// move. A default-constructed object owns nothing and needs no context, so CPU code and tests
// can hold them. Every kind keeps a live count, which tests use to prove nothing leaks.

#include <cstddef>
#include <cstdint>
#include <glad/gl.h>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap::gpu {

enum class ObjectKind {
    Buffer,
    Texture,
    Framebuffer,
    Program,
    Shader,
    VertexArray,
    Sampler,
    Query
};
inline constexpr int kObjectKindCount = 8;

int liveCount(ObjectKind kind);
int totalLiveCount();

template <ObjectKind Kind> class UniqueName {
public:
    UniqueName() = default;
    explicit UniqueName(GLuint name);
    ~UniqueName() { reset(); }
    UniqueName(UniqueName&& other) noexcept : name_(other.release()) {}
    UniqueName& operator=(UniqueName&& other) noexcept {
        if (this != &other) {
            reset();
            name_ = other.release();
        }
        return *this;
    }
    UniqueName(const UniqueName&) = delete;
    UniqueName& operator=(const UniqueName&) = delete;

    GLuint id() const { return name_; }
    explicit operator bool() const { return name_ != 0; }
    void reset();
    GLuint release() {
        GLuint name = name_;
        name_ = 0;
        return name;
    }

private:
    GLuint name_ = 0;
};

// Attaches a debug label (KHR_debug) so captures in RenderDoc and debug messages name the object.
void label(GLenum identifier, GLuint name, std::string_view text);

class Buffer {
public:
    Buffer() = default;
    // Immutable storage with GL_DYNAMIC_STORAGE_BIT so it can be updated with update().
    Buffer(std::size_t bytes, const void* data, std::string_view name);
    void update(std::size_t offset, std::size_t bytes, const void* data);
    GLuint id() const { return name_.id(); }
    std::size_t bytes() const { return bytes_; }

private:
    UniqueName<ObjectKind::Buffer> name_;
    std::size_t bytes_ = 0;
};

// D16: 16-bit unsigned normalised depth (the contact capture's, where its precision suffices).
// SRGB8A8: 8-bit sRGB colour, sampled as linear (the ground texture, a picture someone made).
enum class TextureFormat { R16F, RGBA16F, R32F, RGBA32F, D32F, D16, RGBA8, SRGB8A8 };
inline bool isDepth(TextureFormat format) {
    return format == TextureFormat::D32F || format == TextureFormat::D16;
}

struct TextureFormatInfo {
    GLenum internal;
    int channels;
    int bytesPerTexel;
    const char* name;
};
TextureFormatInfo formatInfo(TextureFormat format);

class Texture2D {
public:
    Texture2D() = default;
    // Allocation can fail (GL_OUT_OF_MEMORY, or the test limit below): the texture then owns
    // nothing (id() == 0) and allocationError() says why, in one line.
    // `levels` > 1 allocates a mip chain (filled by generateMipmaps()).
    Texture2D(int width, int height, TextureFormat format, std::string_view name, int levels = 1);
    const std::string& allocationError() const { return allocationError_; }

    GLuint id() const { return name_.id(); }
    int width() const { return width_; }
    int height() const { return height_; }
    TextureFormat format() const { return format_; }
    std::size_t bytes() const; // every level
    int levels() const { return levels_; }
    void generateMipmaps() { glGenerateTextureMipmap(id()); }

    // Fills every texel with `value` in every channel (depth for D32F).
    void clear(float value);
    // Uploads float data (channels() floats per texel, rows bottom first).
    void upload(std::span<const float> texels);
    // Uploads 8-bit RGBA data (4 bytes per texel, rows bottom first) into level 0.
    void uploadRgba8(std::span<const std::uint8_t> texels);
    // Reads the whole level back as floats (channels() per texel, rows bottom first). Depth
    // formats return the stored depth.
    std::vector<float> readFloats() const;

private:
    UniqueName<ObjectKind::Texture> name_;
    int width_ = 0, height_ = 0, levels_ = 1;
    TextureFormat format_ = TextureFormat::RGBA8;
    std::string allocationError_;
};

struct TextureRequest {
    int width = 0, height = 0;
    TextureFormat format = TextureFormat::R16F;
};

// Whether every texture in `requests` can be allocated now, all at once beside what already
// exists: allocates them, checks, and frees them again. Empty on success, else one line
// ("cannot allocate 8192x8192 R16F (128 MiB): GL_OUT_OF_MEMORY"). Lets a resize fail before
// it has replaced anything.
std::string probeTextures(std::span<const TextureRequest> requests);

// Test only: a texture of more than `bytes` fails as if the driver had run out of memory
// (0 = no limit), so the out-of-memory paths run on any machine.
void setTextureByteLimitForTesting(std::size_t bytes);

class Framebuffer {
public:
    Framebuffer() = default;
    // Attaches colour (may be null) and depth (may be null) textures; throws nothing, check
    // completeness() before use.
    Framebuffer(const Texture2D* colour, const Texture2D* depth, std::string_view name);
    GLuint id() const { return name_.id(); }
    // Empty when complete, else the status in words.
    std::string completeness() const;
    void bind() const; // binds for drawing and sets the viewport to the attachment size
    int width() const { return width_; }
    int height() const { return height_; }

private:
    UniqueName<ObjectKind::Framebuffer> name_;
    int width_ = 0, height_ = 0;
};

class VertexArray {
public:
    VertexArray() = default;
    explicit VertexArray(std::string_view name);
    GLuint id() const { return name_.id(); }

private:
    UniqueName<ObjectKind::VertexArray> name_;
};

class Sampler {
public:
    Sampler() = default;
    Sampler(GLenum filter, GLenum wrap, std::string_view name);
    GLuint id() const { return name_.id(); }

private:
    UniqueName<ObjectKind::Sampler> name_;
};

class Query {
public:
    Query() = default;
    explicit Query(GLenum target);
    GLuint id() const { return name_.id(); }

private:
    UniqueName<ObjectKind::Query> name_;
};

using ProgramName = UniqueName<ObjectKind::Program>;
using ShaderName = UniqueName<ObjectKind::Shader>;

} // namespace snowcap::gpu
