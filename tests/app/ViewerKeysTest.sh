#!/usr/bin/env bash
# The viewer under real X input: runs `snowcap -vv view` on an Xvfb display and drives it with
# xdotool (XTEST: real key presses, as a user's keyboard makes them). Each action key tapped as
# `xdotool key --delay 1` does (press and release within a millisecond, between two frames) must act
# exactly once; held for a second, still once (only `.` may repeat); WASD must move the player.
# The viewer's debug log (one line per key action, the player's position with each screenshot)
# and the screenshots it writes are the evidence. Last, a hostile mesh file typed into the Scene
# panel's add field must give its one line while the viewer keeps running.
#
# Usage (under xvfb-run): ViewerKeysTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$source_dir/tests/app/viewer_x11.sh" # fail, count, await, frames, start_viewer
enter_out_dir
player() { grep "player at" "$log" | tail -1 | sed 's/.*player at //'; }

cp "$source_dir/config/scenarios/decay_compare.toml" "$out/scene.toml"
start_viewer --scenario "$out/scene.toml" --size 1000 640 --panels scene \
    --set snow.resolution=64 \
    --set "deformer=[{name='walker', player=true, shape='sphere', size_cm=[30,30,30], path=[[0,0,0,0]]}]"

echo "tap F12: one screenshot"
xdotool key --delay 1 F12
await "saved out/" 20
frames 3 # a second screenshot would be logged by now
[ "$(count 'key F12')" -eq 1 ] || fail "one F12 tap acted $(count 'key F12') times"
[ "$(ls out/*.png | wc -l)" -eq 1 ] || fail "one F12 tap wrote $(ls out/*.png | wc -l) files"

echo "tap Space twice: paused, then running"
xdotool key --delay 1 space
await "key Space: paused" 20
xdotool key --delay 1 space
await "key Space: running" 20
[ "$(count 'key Space')" -eq 2 ] || fail "two Space taps acted $(count 'key Space') times"

echo "hold F12 for 1.5 s: still one screenshot"
xdotool keydown F12
sleep 1.5
xdotool keyup F12
await "saved out/" 20 2
frames 3
[ "$(count 'key F12')" -eq 2 ] || fail "a held F12 acted $(($(count 'key F12') - 1)) times"
[ "$(ls out/*.png | wc -l)" -eq 2 ] || fail "a held F12 wrote $(($(ls out/*.png | wc -l) - 1)) files"

echo "tap 3, R, F5, .: each acts once"
for key in 3 r F5 period; do
    xdotool key --delay 1 "$key"
done
await "key 3: layout 3" 20
await "key R: restart" 20
await "key F5: reload shaders" 20
await "key \.: step" 20
[ "$(count 'key 3')" -eq 1 ] && [ "$(count 'key R')" -eq 1 ] && [ "$(count 'key F5')" -eq 1 ] ||
    fail "a tap acted more than once"
xdotool key --delay 1 1 # back to the A | B split for the pictures below
await "key 1: layout 1" 20

echo "hold W: the player moves"
before=$(player)
xdotool keydown w
sleep 2
xdotool keyup w
frames 2
xdotool key --delay 1 F12
await "saved out/" 20 3
after=$(player)
echo "player before: $before; after: $after"
[ -n "$before" ] && [ -n "$after" ] || fail "no player position logged"
[ "$before" != "$after" ] || fail "holding W did not move the player ($before)"
last=$(ls -t out/*.png | head -1)
previous=$(ls -t out/*.png | sed -n 2p)
cmp -s "$last" "$previous" && fail "the screenshots before and after W are identical"

echo "type a hostile file into the Scene section's add field: one line, the viewer carries on"
# A 309-byte OFF whose header claims 353,535,235,358 vertices.
{ printf 'OFF\n353535235358 1 0\n'; for i in $(seq 48); do printf '0 0 0\n'; done; printf '3 0 1 2\n'; } \
    >"$out/hostile.off"
# The Scene section is open in the side bar, under the control window.
xdotool mousemove --window "$window" 180 315 click 1 # its add field (under its deformer row)
frames 3 # the press and the release each seen by a frame
xdotool type --delay 5 "$out/hostile.off"
frames 2 # the characters reach the field before the click leaves it
# The add button, not Enter: ImGui 1.86's own text field polls Enter once a frame (the same
# trouble as the viewer's keys had), while its clicks are latched until the next frame.
xdotool mousemove --window "$window" 340 315 click 1 # its add button
await "hostile.off: header claims 353535235358 vertices" 30
xdotool mousemove --window "$window" 750 500 click 1 # pane B: the keys are the viewer's again
frames 3
xdotool key --delay 1 F12
await "saved out/" 20 4
[ "$(count 'key F12')" -eq 4 ] || fail "the viewer stopped taking keys after the hostile file"

echo "replace the scenario file with garbage and load it again: one line, nothing lost"
printf '[snow\nresolution = = 3\n\x01\x02' >"$out/scene.toml"
# The Scene section's scenario load button, a line lower than at the start: the hostile file's
# error line now shows in the control window above it.
xdotool mousemove --window "$window" 344 263 click 1
await "warning: .*scene.toml:[0-9]*:[0-9]*: " 30
xdotool mousemove --window "$window" 750 500 click 1 # pane B
frames 3
xdotool key --delay 1 F12
await "saved out/" 20 5
[ "$(count 'key F12')" -eq 5 ] || fail "the viewer stopped taking keys after the garbage scenario"
# The screenshot logs the player's position: the scene (and its player) is still there.
[ "$(count 'player at')" -eq 5 ] || fail "the scene lost its player after the garbage scenario"

echo "tap Esc: the viewer quits"
quit_viewer
echo "PASS"
