#!/usr/bin/env bash
# The viewer's World panel under real X input (xdotool, as ViewerKeysTest.sh): a player on
# world_walk's world store is teleported 30 m out and back and runs with Shift+W; the world is
# saved with the panel's Save button (a SNOWCAPW file appears) and loaded back with Load; then a
# truncated file and a foreign one each give one line naming the file and the reason, load
# nothing, and are left as they were, while the viewer keeps taking keys.
#
# Usage (under xvfb-run): ViewerWorldTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$source_dir/tests/app/viewer_x11.sh" # fail, count, await, frames, start_viewer, quit_viewer
enter_out_dir

# The World section in a 1000 x 640 window with a player: the side bar (x 0-399) holds it under
# the control window and the closed sections' headers. Its first rows: the player line, the
# teleport fields and button; with the side bar scrolled to its bottom, its last: the file field,
# Save, Load, above the three closed headers after it. The panes (x 400-999) are clear.
click() {
    xdotool mousemove --window "$window" "$1" "$2" click 1
    frames 3 # the press and the release each seen by a frame
}
teleport() { # x y: types them into the teleport fields and presses teleport
    local before
    before=$(count 'player teleported to')
    click 65 361 # the x field
    xdotool key --delay 5 ctrl+a
    xdotool type --delay 5 "$1"
    click 168 361 # the y field
    xdotool key --delay 5 ctrl+a
    xdotool type --delay 5 "$2"
    frames 2
    click 310 361 # teleport
    await 'player teleported to' 30 $((before + 1))
}
to_bottom() { # wheel notches over the side bar until it is scrolled to its end (rows may grow)
    xdotool mousemove --window "$window" 200 550
    for i in 1 2 3 4 5 6 7 8 9 10; do
        xdotool click 5
    done
    frames 2
}
save_button() { to_bottom; click 293 549; }
load_button() { to_bottom; click 337 549; }

start_viewer --scenario world_walk --size 1000 640 --panels world --set snow.follow=walker \
    --set "deformer=[{name='walker', player=true, shape='sphere', size_cm=[30,30,30], path=[[0,0,0,-10]]}]"

echo "teleport 30 m out and back"
teleport 3000 0
grep -q 'player teleported to (3000, 0) cm' "$log" || fail "teleport did not reach (3000, 0)"
frames 3
teleport 0 0
grep -q 'player teleported to (0, 0) cm' "$log" || fail "teleport did not come back to (0, 0)"

echo "hold Shift+W for 4 s: the player runs farther than walking could take it"
player() { grep "player at" "$log" | tail -1 | sed 's/.*player at x \([-0-9.]*\), y \([-0-9.]*\) cm/\1 \2/'; }
click 750 500 # pane B, off the panel: keys are the viewer's
xdotool key --delay 1 F12
await '^debug: player at' 30 1
before=$(player)
xdotool keydown shift keydown w
sleep 4
xdotool keyup w keyup shift
frames 2
xdotool key --delay 1 F12
await '^debug: player at' 30 2
after=$(player)
echo "player before: $before; after: $after"
# Walking (speed_cm_s 100) covers at most 400 cm of simulated time in 4 s of wall time.
awk -v a="$before" -v b="$after" 'BEGIN { split(a, p, " "); split(b, q, " ");
    d = sqrt((q[1] - p[1])^2 + (q[2] - p[2])^2); print "ran " d " cm"; exit !(d > 400) }' ||
    fail "Shift+W did not run (from $before to $after)"

echo "Save world: a world file"
save_button
await '^info: saved world out/viewer.world' 30
[ "$(head -c 8 out/viewer.world)" = "SNOWCAPW" ] || fail "out/viewer.world is not a world file"

echo "Load world: the same file back"
load_button
await '^info: loaded world out/viewer.world' 30

echo "a truncated file: one line, nothing loaded, the file untouched"
head -c 100 out/viewer.world >out/cut.world
mv out/cut.world out/viewer.world
sum=$(sha256sum out/viewer.world)
load_button
await 'out/viewer.world: truncated' 30
[ "$(count 'out/viewer.world: truncated')" -eq 1 ] || fail "the truncated file gave more than one line"
[ "$(count '^info: loaded world')" -eq 1 ] || fail "the truncated file was loaded"
[ "$(sha256sum out/viewer.world)" = "$sum" ] || fail "loading changed the truncated file"

echo "a foreign file: one line"
printf 'not a world at all, just text\n' >out/viewer.world
load_button
await 'out/viewer.world: .*SNOWCAPW\|out/viewer.world: .*magic\|out/viewer.world: .*foreign' 30
[ "$(count '^info: loaded world')" -eq 1 ] || fail "the foreign file was loaded"

echo "the viewer still takes keys"
click 750 500 # pane B, off the panel: keys are the viewer's again
before=$(count 'key F12')
xdotool key --delay 1 F12
await 'key F12' 20 $((before + 1))
await '^info: saved out/' 20 3
quit_viewer
echo "PASS"
