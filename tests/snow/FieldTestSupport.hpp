#pragma once
// Small GL-test helpers for driving a SnowField: a field from settings, a sphere deformer.
#include "render/deformer_set.hpp"
#include "scene/mesh.hpp"
#include "snow/snow_field.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap::test {

inline std::unique_ptr<SnowField> makeField(const Settings& settings, gpu::ShaderLibrary& shaders) {
    auto created = SnowField::create(settings, shaders);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

// A 30 cm sphere; `at(p)` is its instance centred at p (z = -20 presses 20 cm into the snow),
// leaving prints of the given contact type.
struct Sphere {
    Mesh mesh = makeSphere(30.0f);
    gpu::GpuMesh gpuMesh{mesh, "sphere"};
    DeformerInstance at(glm::vec3 position, ContactType contact = ContactType::Other) const {
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), position);
        return {&gpuMesh, model, mesh.bounds().transformed(model), {}, contact};
    }
};

inline float maxOf(const std::vector<float>& values) {
    float m = 0.0f;
    for (float v : values)
        m = std::max(m, v);
    return m;
}

// The R channel of a texture, one float per texel (whatever its channel count).
inline std::vector<float> redOf(const gpu::Texture2D& texture) {
    const std::vector<float> all = texture.readFloats();
    const std::size_t texels = static_cast<std::size_t>(texture.width()) * texture.height();
    const std::size_t channels = texels ? all.size() / texels : 1;
    std::vector<float> red(texels);
    for (std::size_t i = 0; i < texels; ++i)
        red[i] = all[i * channels];
    return red;
}

} // namespace snowcap::test
