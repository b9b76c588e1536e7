// `snowcap` / `snowcap view`: the A/B viewer. Without a display it never pretends: a scripted
// run (--frames, --screenshot, --record) goes through the headless context and writes exactly
// what was asked for; a plain `snowcap` says so and renders the scenario into out/ instead.
#include "app/commands.hpp"
#include "lab/run_outputs.hpp"
#include "platform/window.hpp"
#include "viewer/viewer_frame.hpp"

#include <chrono>
#include <cstdlib>
#include <spdlog/spdlog.h>
#include <system_error>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// A fresh, empty directory for the render's own outputs, removed when the run is over: a
// scripted `view` writes only the files it was asked for.
class ScratchDir {
public:
    ScratchDir() {
        std::string pattern = (fs::temp_directory_path() / "snowcap-view-XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ignored;
        if (!path_.empty())
            fs::remove_all(path_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// The viewer's start-up choices as `render --ui` options: the same panels, layout, probe,
// window size and world file.
RenderOptions headlessViewer(const ViewOptions& options, CommonOptions& common) {
    RenderOptions render;
    render.scenario = options.scenario;
    render.ui = true;
    render.panels = options.panels;
    render.layout = options.layout;
    render.probeCm = options.probeCm;
    render.worldIn = options.worldIn;
    common.overrides.push_back("view.width=" + std::to_string(options.width));
    common.overrides.push_back("view.height=" + std::to_string(options.height));
    return render;
}

// `view --frames N [--screenshot F] [--record V]` with no display: N steps through the
// headless context, the last frame (panels included) as F, the run as V.
int runScriptedHeadless(CommonOptions common, const ViewOptions& options) {
    if (options.quitAfterFrames <= 0) {
        spdlog::error("view: --screenshot and --record need --frames N when there is no display "
                      "(DISPLAY / WAYLAND_DISPLAY unset): nothing would ever close the run");
        return 2;
    }
    // Refused before anything starts, in the one line the viewer would give.
    std::array<bool, static_cast<int>(PanelId::Count)> open{};
    std::string scrollTo; // render --ui opens the panel on that view
    if (!options.panels.empty())
        if (auto error = parsePanelList(options.panels, open, &scrollTo)) {
            spdlog::error("{}", *error);
            return 2;
        }
    ScratchDir scratch;
    if (scratch.path().empty()) {
        spdlog::error("view: cannot make a scratch directory in {}",
                      fs::temp_directory_path().string());
        return 1;
    }
    RenderOptions render = headlessViewer(options, common);
    render.frames = options.quitAfterFrames;
    render.outDir = scratch.path();
    render.video = options.record;
    spdlog::info("no display: running the viewer's {} scripted steps on the headless context",
                 options.quitAfterFrames);
    render.closingLine = false; // the scratch directory's files are not this command's
    const auto started = std::chrono::steady_clock::now();
    if (const int status = runRender(common, render); status != 0)
        return status;
    std::vector<fs::path> written;
    if (!options.screenshot.empty()) {
        std::error_code ec;
        fs::copy_file(scratch.path() / "final.png", options.screenshot,
                      fs::copy_options::overwrite_existing, ec);
        if (ec) {
            spdlog::error("{}: cannot write the screenshot ({})", options.screenshot.string(),
                          ec.message());
            return 1;
        }
        written.push_back(options.screenshot);
    }
    if (!options.record.empty())
        written.push_back(options.record);
    spdlog::info("view: {} steps in {:.2f} s; wrote {}", options.quitAfterFrames,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                 outputList(fs::path(), written));
    return 0;
}

} // namespace

int runView(const CommonOptions& common, const ViewOptions& options) {
    if (displayAvailable())
        return runViewer(common, options);
    if (options.quitAfterFrames > 0 || !options.screenshot.empty() || !options.record.empty())
        return runScriptedHeadless(common, options);

    spdlog::warn("no display (DISPLAY / WAYLAND_DISPLAY unset): rendering '{}' headless "
                 "into out/ instead of opening the viewer",
                 options.scenario);
    // The viewer-only choices are kept: with panels, a layout or a probe the images are the
    // viewer's frame (`render --ui`), so a bad value is refused as it would be in the viewer.
    CommonOptions withSize = common;
    RenderOptions render;
    if (!options.panels.empty() || !options.layout.empty() || !options.probeCm.empty())
        render = headlessViewer(options, withSize);
    render.scenario = options.scenario;
    render.worldIn = options.worldIn;
    render.outDir = "out";
    return runRender(withSize, render);
}

} // namespace snowcap
