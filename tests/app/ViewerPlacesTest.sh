#!/usr/bin/env bash
# Where the interactive viewer opens its panels: `snowcap -v view` in a real window
# on the Xvfb display, at its default size (1600 x 900), with the default panels, with
# `--panels all`, and with every panel over the four-pane grid. With its screenshot the viewer
# logs each part of the screen the panels keep clear of (every pane's centre box and label) and
# each window ImGui placed (viewer_frame.hpp, logPlaces); no panel may cover any of the former
# or leave the screen. The control window always opens top left (viewer_panels.hpp) and is
# not checked. The same check as PanelPlacementGLTest, on the viewer's own window and ImGui
# backend rather than `render --ui`'s headless frame.
#
# Usage (under xvfb-run, a screen of at least 1600 x 900): ViewerPlacesTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$out"
mkdir -p "$out"
export XDG_CONFIG_HOME="$out/config" # a scripted run reads no saved layout anyway

# check NAME WINDOWS CLEAR ARGS...: runs the viewer with ARGS and fails unless ImGui placed
# WINDOWS windows (the control window included) and the viewer kept CLEAR rectangles clear.
failed=0
check() {
    local name="$1" windows="$2" clear="$3"
    shift 3
    local log="$out/$name.log"
    # Four frames: ImGui measures an auto-sized window on its first frame and shows it on the
    # next; the screenshot is of the last.
    if ! timeout 240 "$snowcap" -v view --frames 4 --screenshot "$out/$name.png" \
        --set snow.resolution=64 "$@" >"$log" 2>&1; then
        echo "FAIL $name: the viewer failed"
        cat "$log"
        failed=1
        return
    fi
    grep "keep clear: \|window '" "$log"
    awk -v name="$name" -v want_windows="$windows" -v want_clear="$clear" '
        function rect(s, r,   a) { # "X,Y WxH" into r[1..4]
            split(s, a, /[, x]/)
            r[1] = a[1] + 0; r[2] = a[2] + 0; r[3] = a[3] + 0; r[4] = a[4] + 0
        }
        /debug: keep clear: / {
            rect($4 " " $5, r)
            ++nc; for (i = 1; i <= 4; ++i) c[nc, i] = r[i]
        }
        /debug: window \x27/ {
            match($0, /\x27[^\x27]*\x27/)
            title = substr($0, RSTART + 1, RLENGTH - 2)
            rest = substr($0, RSTART + RLENGTH + 2)
            split(rest, f, " ")
            rect(f[1] " " f[2], r)
            ++nw; t[nw] = title; for (i = 1; i <= 4; ++i) w[nw, i] = r[i]
        }
        END {
            bad = 0
            if (nw != want_windows) { print name ": " nw " windows, not " want_windows; bad = 1 }
            if (nc != want_clear) { print name ": " nc " kept clear, not " want_clear; bad = 1 }
            for (k = 1; k <= nw; ++k) {
                if (t[k] == "snowcap") continue
                if (w[k, 1] < 0 || w[k, 2] < 0 || w[k, 1] + w[k, 3] > 1600 ||
                    w[k, 2] + w[k, 4] > 900) {
                    print name ": \x27" t[k] "\x27 leaves the 1600 x 900 screen"; bad = 1
                }
                for (j = 1; j <= nc; ++j)
                    if (w[k, 1] < c[j, 1] + c[j, 3] && c[j, 1] < w[k, 1] + w[k, 3] &&
                        w[k, 2] < c[j, 2] + c[j, 4] && c[j, 2] < w[k, 2] + w[k, 4]) {
                        print name ": \x27" t[k] "\x27 at " w[k, 1] "," w[k, 2] " " w[k, 3] "x" \
                            w[k, 4] " covers " c[j, 1] "," c[j, 2] " " c[j, 3] "x" c[j, 4]
                        bad = 1
                    }
            }
            exit bad
        }' "$log" || {
        echo "FAIL $name"
        failed=1
        return
    }
    echo "ok $name"
}

# Two panes (A | B): two centres and two labels kept clear.
check default 2 4 # the plain start: the default scenario, the Sims panel folded
check all 11 4 --scenario "$source_dir/config/scenarios/decay_compare.toml" --panels all
# Four sims: the 2 x 2 grid, four centres and four labels.
check grid_all 11 8 --scenario decay_ladder --panels all
[ "$failed" -eq 0 ] || exit 1
echo "PASS"
