#!/usr/bin/env bash
# Where the interactive viewer puts its panels: `snowcap -v view` in a real window on the Xvfb
# display, at its default size (1600 x 900), with the default panels, with `--panels all`, and
# with every panel over the four-pane grid. With its screenshot the viewer logs each pane and
# each window ImGui placed (viewer_frame.hpp, logPlaces): there is one window, the side bar
# docked along the left edge, on the screen and on no pane. Then by the pixels: the panes of a
# run with every panel open are the same as those of a run with none (the same fixed steps), so
# no panel pixel lies on a pane. The same checks as PanelPlacementGLTest, on the viewer's own
# window and ImGui backend rather than `render --ui`'s headless frame.
#
# Usage (under xvfb-run, a screen of at least 1600 x 900):
#   ViewerPlacesTest.sh SNOWCAP VIEWER_PICTURE OUT_DIR
set -u
snowcap="$1"
picture="$2"
out="$3"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$out"
mkdir -p "$out"
export XDG_CONFIG_HOME="$out/config" # a scripted run reads no saved layout anyway

# check NAME PANES ARGS...: runs the viewer with ARGS and fails unless it logged PANES panes and
# one window, the side bar, on the 1600 x 900 screen and on none of the panes.
failed=0
check() {
    local name="$1" panes="$2"
    shift 2
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
    grep "debug: pane: \|window '" "$log"
    awk -v name="$name" -v want_panes="$panes" '
        function rect(s, r,   a) { # "X,Y WxH" into r[1..4]
            split(s, a, /[, x]/)
            r[1] = a[1] + 0; r[2] = a[2] + 0; r[3] = a[3] + 0; r[4] = a[4] + 0
        }
        /debug: pane: / {
            rect($3 " " $4, r)
            ++np; for (i = 1; i <= 4; ++i) p[np, i] = r[i]
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
            if (nw != 1 || t[1] != "snowcap") {
                print name ": " nw " windows, not the one side bar"; bad = 1
            }
            if (np != want_panes) { print name ": " np " panes, not " want_panes; bad = 1 }
            for (k = 1; k <= nw; ++k) {
                if (w[k, 1] < 0 || w[k, 2] < 0 || w[k, 1] + w[k, 3] > 1600 ||
                    w[k, 2] + w[k, 4] > 900) {
                    print name ": \x27" t[k] "\x27 leaves the 1600 x 900 screen"; bad = 1
                }
                for (j = 1; j <= np; ++j)
                    if (w[k, 1] < p[j, 1] + p[j, 3] && p[j, 1] < w[k, 1] + w[k, 3] &&
                        w[k, 2] < p[j, 2] + p[j, 4] && p[j, 2] < w[k, 2] + w[k, 4]) {
                        print name ": \x27" t[k] "\x27 at " w[k, 1] "," w[k, 2] " " w[k, 3] "x" \
                            w[k, 4] " covers the pane at " p[j, 1] "," p[j, 2]
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

# same_panes NAME_A NAME_B: fails unless the two screenshots agree on every pane (as logged).
same_panes() {
    local pane diff
    while read -r pane; do
        diff=$("$picture" diff "$out/$1.png" "$out/$2.png" $pane)
        echo "pane $pane: $diff px differ between $1 and $2"
        [ "$diff" -eq 0 ] || { echo "FAIL: a panel drew on the pane at $pane"; failed=1; }
    done < <(grep "debug: pane: " "$out/$1.log" |
        sed 's/.*pane: \([0-9.]*\),\([0-9.]*\) \([0-9.]*\)x\([0-9.]*\)/\1 \2 \3 \4/' |
        awk '{ printf "%d %d %d %d\n", $1, $2, $3, $4 }')
    # The control: the side bar itself does differ (the sections open in one and not the other).
    diff=$("$picture" diff "$out/$1.png" "$out/$2.png" 0 0 300 900)
    [ "$diff" -gt 1000 ] || { echo "FAIL: the side bars of $1 and $2 are alike: the check is blind"; failed=1; }
}

decay_compare="$source_dir/config/scenarios/decay_compare.toml"
# Two panes (A | B).
check default 2 # the plain start: the default scenario, the Sims section open
check all 2 --scenario "$decay_compare" --panels all
check none 2 --scenario "$decay_compare" --panels none
same_panes all none
# Four sims: the 2 x 2 grid.
check grid_all 4 --scenario decay_ladder --panels all
check grid_none 4 --scenario decay_ladder --panels none
same_panes grid_all grid_none
[ "$failed" -eq 0 ] || exit 1
echo "PASS"
