#pragma once
// The windowed A/B viewer (needs a display): `snowcap` and `snowcap view`.

#include "lab/session.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace snowcap {

struct ViewOptions {
    std::string scenario = "decay_compare";
    // --frames N (alias --quit-after): N fixed steps with the UI, then exit; 0: until closed.
    int quitAfterFrames = 0;
    std::filesystem::path screenshot; // written when quitting after N frames
    std::string panels;               // --panels: which panels start open ("" = the default)
    std::string layout;               // --layout: vertical | horizontal | a | b | difference
    std::vector<double> probeCm;      // --probe X Y: the decay probe from the start
    int width = 1600, height = 900;   // --size WxH of the window
    std::filesystem::path record;     // --record FILE: the Record button pressed at the start
    std::filesystem::path worldIn;    // --world-in: start from a world file (docs/world.md)
    std::string connect;              // --connect HOST:PORT: a session's client (docs/network.md)
};

class RemoteSteps;

// With `remote` (view --connect), the lab is built from the session's settings and stepped by
// it: --frames N then means the session's step N.
int runViewer(const CommonOptions& common, const ViewOptions& options,
              RemoteSteps* remote = nullptr);

} // namespace snowcap
