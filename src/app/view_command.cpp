// `snowcap` / `snowcap view`: the A/B viewer. Without a display it never pretends: a scripted
// run (--frames, --screenshot, --record) goes through the headless context and writes exactly
// what was asked for; a plain `snowcap` (or `view`) says to use `render` or --screenshot and
// exits 2 (./tools/run calls `render` itself when there is no display).
#include "app/commands.hpp"
#include "core/untrusted_file.hpp"
#include "io/image.hpp"
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
    if (!options.screenshot.empty())
        if (auto refused = checkReplaceable(options.screenshot)) {
            spdlog::error("{}", *refused);
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
        // Whole or not at all, and never over anything but a regular file.
        auto picture = readUntrustedBytes(scratch.path() / "final.png");
        if (auto* error = std::get_if<std::string>(&picture)) {
            spdlog::error("{}", *error);
            return 1;
        }
        if (auto error = writeFileAtomically(options.screenshot,
                                             std::get<std::vector<std::uint8_t>>(picture))) {
            spdlog::error("{}", *error);
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
    if (!options.connect.empty())
        return runViewConnect(common, options);
    if (displayAvailable())
        return runViewer(common, options);
    if (options.quitAfterFrames > 0 || !options.screenshot.empty() || !options.record.empty())
        return runScriptedHeadless(common, options);

    // Nothing was asked for but a window: writing images somewhere unasked (out/ held the
    // last run's outputs) would be a surprise, so say what does work without a display.
    spdlog::error("view: no display (DISPLAY / WAYLAND_DISPLAY unset); use `snowcap render "
                  "--scenario {}` for images in --out, or `view --frames N --screenshot FILE`",
                  options.scenario);
    return 2;
}

} // namespace snowcap
