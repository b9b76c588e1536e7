#!/usr/bin/env bash
# The viewer under real X mouse input: `snowcap -v view` on an Xvfb display driven by xdotool
# (XTEST: real pointer motion, button and wheel events). Each action is proved twice, by the
# state the next screenshot was drawn with (the viewer logs it) and by the screenshot's pixels
# (viewer_picture): an orbit drag pitches and turns the camera (most of the scene's pixels
# change, where a paused viewer left alone changes none), wheel notches zoom in (the player
# sphere covers more pixels), a divider drag moves the A | B split (the dark gap column moves),
# a good mesh typed into the Scene panel's add field appears (a second deformer: a new row in
# the panel, new pixels around the player).
#
# Usage (under xvfb-run): ViewerMouseTest.sh SNOWCAP VIEWER_PICTURE OUT_DIR
set -u
snowcap="$1"
picture="$2"
out="$3"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$source_dir/tests/app/viewer_x11.sh"
enter_out_dir

# The window is 1000 x 640: the side bar takes x 0-399 (40 % of the window, viewer_views.hpp),
# with the control window at its top and the Scene section open under it; pane A is x 400-698
# and pane B x 701-999 (viewer_views.cpp), the player sphere at each one's centre.
scene="400 0 600 640"   # both panes and the A | B gap (x y w h)
paneA="400 262 298 125" # pane A about its centre, below the horizon of the orbited view
rows="40 640 405 1000"  # rows under the labels, columns right of the side bar: the A | B gap
start_viewer --scenario "$source_dir/config/scenarios/decay_compare.toml" --size 1000 640 \
    --panels scene --set snow.resolution=64 \
    --set "deformer=[{name='walker', player=true, shape='sphere', size_cm=[30,30,30], path=[[0,0,0,0]]}]"
xdotool key --delay 1 space # paused: only the input changes the picture
await "key Space: paused" 30

# Pixels of $1 measured by viewer_picture $2 over a rectangle.
measure() { "$picture" "$2" "$1" $3; }

first=$(shot)
echo "start: $(view_state)"
[ "$(measure "$first" divider "$rows")" -ge 695 ] && [ "$(measure "$first" divider "$rows")" -le 705 ] ||
    fail "no A | B divider near x 700 at the start ($(measure "$first" divider "$rows"))"
pitch0=$(view_field pitch)
yaw0=$(view_field yaw)

echo "drag with the left button on pane B: orbit (up 100 px pitches down to the horizon, right"
echo "100 px turns; the cameras are linked, so A's turns too)"
xdotool mousemove --window "$window" 750 520 mousedown 1
down=$(shot) # a frame sees the button go down on the scene
# The control: paused, and the button alone moves nothing, so the picture is the same.
[ "$(measure "$first" diff "$down $scene")" -eq 0 ] || fail "the picture changed without input"
xdotool mousemove --window "$window" 800 470
frames 2
xdotool mousemove --window "$window" 850 420
frames 2
xdotool mouseup 1
frames 2
orbited=$(shot)
echo "after the drag: $(view_state)"
pitch1=$(view_field pitch)
yaw1=$(view_field yaw)
changed=$(measure "$first" diff "$orbited $scene")
echo "pitch $pitch0 -> $pitch1, yaw $yaw0 -> $yaw1; $changed of 384000 scene pixels changed"
awk -v a="$pitch0" -v b="$pitch1" 'BEGIN { exit !(b < a - 20) }' ||
    fail "dragging up 100 px did not pitch the camera down (pitch $pitch0 -> $pitch1)"
awk -v a="$yaw0" -v b="$yaw1" 'BEGIN { exit !(b < a - 20) }' ||
    fail "dragging right 100 px did not turn the camera (yaw $yaw0 -> $yaw1)"
[ "$changed" -gt 38400 ] || fail "the orbit changed only $changed of the scene's pixels"

echo "wheel up 4 notches over pane A: zoom in"
distance0=$(view_field distance)
ink0=$(measure "$orbited" ink "$paneA")
xdotool mousemove --window "$window" 550 330 # pane A
for i in 1 2 3 4; do
    xdotool click 4
done
zoomed=$(shot)
distance1=$(view_field distance)
ink1=$(measure "$zoomed" ink "$paneA")
echo "distance $distance0 -> $distance1 cm, non-snow pixels in A $ink0 -> $ink1"
awk -v a="$distance0" -v b="$distance1" 'BEGIN { exit !(b < a * 0.7 && b > a * 0.6) }' ||
    fail "4 wheel notches did not zoom in to 0.9^4 = 0.66 of the distance ($distance0 -> $distance1)"
[ "$ink1" -gt $((ink0 * 3 / 2)) ] ||
    fail "zooming in did not make the sphere bigger in the picture ($ink0 -> $ink1 px)"

echo "drag the divider from x 700 to x 580 (0.3 of the panes' 600 px from x 400, at y 330)"
xdotool mousemove --window "$window" 700 330 mousedown 1
frames 2
xdotool mousemove --window "$window" 640 330
frames 2
xdotool mousemove --window "$window" 580 330
frames 2
xdotool mouseup 1
frames 2
split=$(shot)
divider=$(view_field divider)
column=$(measure "$split" divider "$rows")
echo "divider $divider, dark column at x $column"
awk -v d="$divider" 'BEGIN { exit !(d > 0.29 && d < 0.31) }' ||
    fail "the divider is at $divider after dragging it to x 580 (expected 0.300)"
[ "$column" -ge 575 ] && [ "$column" -le 585 ] ||
    fail "the picture's A | B gap is at x $column, not at 580"
[ "$(view_field yaw)" = "$yaw1" ] || fail "the divider drag turned the camera too"

echo "type a mesh path into the Scene panel's add field: it appears"
# Non-snow pixels of the scene: both panes, right of the side bar.
sceneInk() { measure "$1" ink "$scene"; }
before=$(sceneInk "$split")
click() { # click X Y: a press and a release, each seen by a frame before the pointer moves on
    xdotool mousemove --window "$window" "$1" "$2" click 1
    frames 3
}
click 180 315 # the Scene section's add field (under its one deformer row)
xdotool type --delay 5 "$source_dir/assets/meshes/sled.glb"
frames 2
# The add button, not Enter: ImGui 1.86's text field polls Enter once a frame.
click 340 315 # its add button
click 200 163 # the status line over the sections: off the field, the keys are the viewer's again
added=$(shot)
[ "$(view_field deformers)" -eq 2 ] || fail "the sled was not added ($(view_state))"
after=$(sceneInk "$added")
listed=$(measure "$split" diff "$added 10 282 390 50") # the Scene section's deformer rows
echo "deformers 2; non-snow pixels in the scene $before -> $after; $listed px of the list changed"
# Placed half way into the snow at the region centre, the sled shows its runners and rails
# around the player sphere in each pane (about 110 px in all at this distance in panes 179 and
# 419 px wide; none without it, the picture being paused).
[ "$after" -gt $((before + 60)) ] || fail "the sled does not show in the picture ($before -> $after px)"
[ "$listed" -gt 500 ] || fail "the Scene panel does not list the sled ($listed px changed)"
grep -q "sled.glb:" "$log" && fail "adding the sled logged an error"

echo "tap Esc: the viewer quits"
quit_viewer
echo "PASS"
