#include "lab/session.hpp"

#include "core/paths.hpp"
#include "scene/capture_proxy.hpp"

namespace snowcap {

std::variant<Settings, ConfigError>
loadScenarioSettings(const std::string& scenario, const std::vector<std::string>& overrides) {
    const std::filesystem::path root = resourceRoot();
    return loadSettings({root / "config/default.toml", resolveScenario(scenario, root)}, overrides);
}

std::variant<Session, std::string> createSession(const Settings& settings,
                                                 gpu::ShaderLibrary& shaders) {
    Session session;
    auto field = SnowField::create(settings, shaders);
    if (auto* error = std::get_if<std::string>(&field))
        return *error;
    session.field = std::move(std::get<0>(field));
    auto renderer = SceneRenderer::create(shaders);
    if (auto* error = std::get_if<std::string>(&renderer))
        return *error;
    session.renderer = std::move(std::get<0>(renderer));
    std::vector<Deformer> deformers;
    for (const DeformerSettings& deformer : settings.deformers) {
        auto loaded =
            loadDeformer(deformer, resourceRoot(), groundZCm(settings.snow), settings.import);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        deformers.push_back(std::move(std::get<Deformer>(loaded)));
    }
    session.deformers = DeformerSet(std::move(deformers), captureProxyErrorCm(settings));
    return session;
}

} // namespace snowcap
