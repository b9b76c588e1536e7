#include "render/falling_snow_pass.hpp"

namespace snowcap {

std::variant<std::unique_ptr<FallingSnowPass>, std::string>
FallingSnowPass::create(gpu::ShaderLibrary& shaders) {
    std::unique_ptr<FallingSnowPass> pass(new FallingSnowPass());
    auto loaded = shaders.load({"falling_snow",
                                {{GL_VERTEX_SHADER, "render/falling_snow.vert"},
                                 {GL_FRAGMENT_SHADER, "render/falling_snow.frag"}},
                                {}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    pass->program_ = std::get<gpu::ShaderProgram*>(loaded);
    pass->emptyArray_ = gpu::VertexArray("view.falling_snow");
    return pass;
}

GLuint FallingSnowPass::program() const {
    return program_->id();
}

void FallingSnowPass::draw(const FallingSnowAir& air, const glm::mat4& projection) const {
    if (air.flakes <= 0)
        return;
    const GLuint program = program_->id();
    glProgramUniform4f(program, 0, air.boxMinCm.x, air.boxMinCm.y, air.boxMinCm.z,
                       static_cast<float>(air.timeS));
    glProgramUniform4f(program, 1, air.boxSizeCm.x, air.boxSizeCm.y, air.boxSizeCm.z,
                       static_cast<float>(air.flakes));
    glProgramUniform4f(program, 2, air.windDirection.x, air.windDirection.y, air.windCmS,
                       air.gustAmount);
    glProgramUniform4f(program, 3, air.gustOmega, air.gustWaveNumber, kFlakeFallMinCmS,
                       kFlakeFallMaxCmS);
    glProgramUniform4f(program, 4, kFlakeRadiusCm, kFlakeMinRadiusPx, kFlakeMaxRadiusPx,
                       projection[1][1]);
    // A perspective projection's last column is (0, 0, -1, 0); an orthographic one's w is 1.
    const bool perspective = projection[3][3] == 0.0f;
    glProgramUniform1f(program, 5, perspective ? kFlakeNearCm : 0.0f);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_POINTS, 0, air.flakes);
}

} // namespace snowcap
