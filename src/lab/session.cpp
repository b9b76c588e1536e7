#include "lab/session.hpp"

#include "core/paths.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"
#include "scene/crowd.hpp"

namespace snowcap {

std::variant<Settings, ConfigError>
loadScenarioSettings(const std::string& scenario, const std::vector<std::string>& overrides) {
    const std::filesystem::path root = resourceRoot();
    return loadSettings({root / "config/default.toml", resolveScenario(scenario, root)}, overrides);
}

std::variant<std::vector<Deformer>, std::string> loadScenarioDeformers(const Settings& settings) {
    auto placed = scenarioDeformers(settings); // the [[deformer]] list, then the crowds
    if (auto* error = std::get_if<std::string>(&placed))
        return *error;
    return loadDeformers(std::get<std::vector<DeformerSettings>>(placed), resourceRoot(),
                         groundZCm(settings.snow), settings.import);
}

std::variant<std::vector<Foliage>, std::string> loadScenarioFoliage(const Settings& settings) {
    std::vector<Foliage> foliage;
    for (std::size_t i = 0; i < settings.foliage.size(); ++i) {
        auto loaded = loadFoliage(settings.foliage[i], "foliage[" + std::to_string(i) + "]",
                                  resourceRoot(), groundZCm(settings.snow), settings.import);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        foliage.push_back(std::move(std::get<Foliage>(loaded)));
    }
    return foliage;
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
    auto deformers = loadScenarioDeformers(settings);
    if (auto* error = std::get_if<std::string>(&deformers))
        return *error;
    session.deformers = DeformerSet(std::move(std::get<std::vector<Deformer>>(deformers)),
                                    captureProxyErrorCm(settings), captureSubsetBandCm(settings));
    auto foliage = loadScenarioFoliage(settings);
    if (auto* error = std::get_if<std::string>(&foliage))
        return *error;
    session.foliage = FoliageSet(std::move(std::get<std::vector<Foliage>>(foliage)), settings.wind);
    return session;
}

} // namespace snowcap
