#include "render/falling_snow_pass.hpp"

#include <array>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

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

FallingSnowAir fallingSnowAirFor(const Settings& settings, const Region& region,
                                 const Camera& camera, double timeS) {
    // A perspective projection's last column is (0, 0, -1, 0); an orthographic one's w is 1.
    if (camera.projection[3][3] != 0.0f)
        return fallingSnowAir(settings.weather, settings.wind, settings.look, region,
                              settings.snow.surfaceZCm, timeS);
    const glm::mat4 toWorld = glm::inverse(camera.view);
    const FlakeEye eye{glm::vec3(toWorld[3]), -glm::normalize(glm::vec3(toWorld[2]))};
    return fallingSnowAirAround(settings.weather, settings.wind, settings.look, eye,
                                settings.snow.surfaceZCm, timeS);
}

GLuint FallingSnowPass::program() const {
    return program_->id();
}

void FallingSnowPass::draw(const FallingSnowAir& air, const glm::mat4& projection) const {
    if (air.flakes <= 0)
        return;
    const GLuint program = program_->id();
    glProgramUniform4f(program, 0, static_cast<float>(air.timeS), static_cast<float>(air.flakes),
                       static_cast<float>(air.levels), static_cast<float>(air.gustTimeS));
    glProgramUniform4f(program, 1, air.windDirection.x, air.windDirection.y, air.windCmS,
                       air.gustAmount);
    glProgramUniform4f(program, 2, air.gustOmega, air.gustWaveNumber, kFlakeFallMinCmS,
                       kFlakeFallMaxCmS);
    std::array<glm::vec3, kFlakeLevels> mins{}, sizes{}, origins{};
    for (int l = 0; l < kFlakeLevels; ++l) {
        mins[l] = air.boxes[l].minCm;
        sizes[l] = air.boxes[l].sizeCm;
        origins[l] = air.boxes[l].originCm;
    }
    glProgramUniform3fv(program, 5, kFlakeLevels, &mins[0].x);
    glProgramUniform3fv(program, 5 + kFlakeLevels, kFlakeLevels, &sizes[0].x);
    glProgramUniform3fv(program, 5 + 2 * kFlakeLevels, kFlakeLevels, &origins[0].x);
    glProgramUniform4f(program, 3, kFlakeRadiusCm, kFlakeMinRadiusPx, kFlakeMaxRadiusPx,
                       projection[1][1]);
    // A perspective projection's last column is (0, 0, -1, 0); an orthographic one's w is 1.
    const bool perspective = projection[3][3] == 0.0f;
    glProgramUniform1f(program, 4, perspective ? kFlakeNearCm : 0.0f);
    glBindVertexArray(emptyArray_.id());
    glDrawArrays(GL_POINTS, 0, air.flakes);
}

} // namespace snowcap
