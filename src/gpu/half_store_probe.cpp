#include "gpu/half_store_probe.hpp"

#include "gpu/pass_state.hpp"

namespace snowcap::gpu {

std::variant<HalfRounding, std::string> detectHalfStoreRounding(ShaderLibrary& shaders) {
    auto loaded = shaders.load({"write_value",
                                {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                 {GL_FRAGMENT_SHADER, "debug/write_value.frag"}},
                                {}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const ShaderProgram& program = *std::get<ShaderProgram*>(loaded);

    Texture2D target(1, 1, TextureFormat::R16F, "probe.half_store");
    Framebuffer framebuffer(&target, nullptr, "probe.half_store");
    VertexArray vertexArray("probe.fullscreen");
    // 1 + 0.75 ulp: truncation stores 1, round-to-nearest stores 1 + 1 ulp.
    const float value = 1.0f + 0.75f * std::ldexp(1.0f, -10);
    PassState pass = passInto(framebuffer);
    pass.program = program.id();
    beginPass(pass);
    glProgramUniform1f(program.id(), 0, value);
    glBindVertexArray(vertexArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    const float stored = target.readFloats().at(0);
    if (stored == 1.0f)
        return HalfRounding::Truncate;
    if (stored == 1.0f + std::ldexp(1.0f, -10))
        return HalfRounding::NearestEven;
    return "unexpected R16F store of " + std::to_string(value) + ": " + std::to_string(stored);
}

} // namespace snowcap::gpu
