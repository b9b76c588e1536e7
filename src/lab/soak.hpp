#pragma once
// `snowcap render` with [soak] enabled = true (config/scenarios/soak.toml): a long run that
// moves the deformers at random, resets the sims, changes resolution, region and sim parameters
// mid-run, and after every check_every steps reads every persistent buffer, blurred copy and
// capture depth back: each value must be finite and in [0, 1]. Live GL objects and the process
// RSS are measured at the end of warm-up and at the end; objects must match exactly (at the same
// settings), RSS may grow by soak.rss_slack_mib at most. The random sequence comes from
// soak.seed, so a failing run replays exactly. docs/reliability.md has the figures.

#include "gpu/shader_library.hpp"
#include "lab/lab.hpp"
#include "lab/progress.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace snowcap {

// Runs settings.run.frames soak steps on the lab's field and deformers and writes soak.json
// into `outDir`.
// Returns 0 when every check held, 1 after the first violation (one line naming the step, the
// buffer, the texel and the seed), 2 when the outputs cannot be written.
// Progress goes to stderr as `progressMode` says (lab/progress.hpp).
int runSoak(const Settings& settings, Lab& lab, const std::filesystem::path& outDir,
            ProgressMode progressMode = ProgressMode::Off);

// The soak's buffer check: every value finite, and in [0, 1] in the first `unitChannels`
// channels (all by default; a blurred copy that carries its slope has one), else where the
// first that is not sits ("WHAT (WxH): texel (x, y) channel c = nan"). A texture that owns
// nothing passes.
std::optional<std::string> checkSoakTexture(const gpu::Texture2D& texture, const std::string& what,
                                            int unitChannels = 4);

// The same for a snowpack state (RGBA32F depth, mass, water, free): every value finite, and
// depth, mass and water never negative (they are not fractions: 30 cm is 30).
std::optional<std::string> checkSoakSnowpack(const gpu::Texture2D& state, const std::string& what);

// The resident set size of this process in bytes (/proc/self/statm), 0 where unknown.
std::size_t residentBytes();

} // namespace snowcap
