// `snowcap` / `snowcap view`: the A/B viewer. Without a display it says so and renders the
// scenario headless into out/ instead.
#include "app/commands.hpp"
#include "platform/window.hpp"

#include <spdlog/spdlog.h>

namespace snowcap {

int runView(const CommonOptions& common, const ViewOptions& options) {
    if (!displayAvailable()) {
        spdlog::warn("no display (DISPLAY / WAYLAND_DISPLAY unset): rendering '{}' headless "
                     "into out/ instead of opening the viewer",
                     options.scenario);
        RenderOptions render;
        render.scenario = options.scenario;
        render.outDir = "out";
        return runRender(common, render);
    }
    return runViewer(common, options);
}

} // namespace snowcap
