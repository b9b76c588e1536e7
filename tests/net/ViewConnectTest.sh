#!/usr/bin/env bash
# `view --connect` under real X input: `snowcap serve` (inputs mode, a player sphere) waits for
# two clients, the viewer (on the Xvfb display, driven by xdotool) and a headless
# `render --connect`. W is held in the viewer for a while: its input must reach the server
# (accepted, none refused), the headless client must still end byte-identical to the server
# (the player the viewer drove pressed the same snow on every side), and the viewer must quit
# at the session's step N with its screenshot.
#
# Usage (under xvfb-run): ViewConnectTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$source_dir/tests/app/viewer_x11.sh" # fail, count, await, start_viewer
enter_out_dir
steps=600 # 10 s of the server's real-time clock: room to hold W on a loaded machine

"$snowcap" serve --scenario press_release --port 0 --frames "$steps" --wait-clients 2 \
    --expect-clients 2 --out server --set 'net.mode="inputs"' --set snow.resolution=64 \
    --set "deformer=[{name='walker', player=true, shape='sphere', size_cm=[30,30,30], path=[[0,0,0,0]]}]" \
    >server.log 2>&1 &
server=$!
port=""
for ((i = 0; i < 600; ++i)); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' server.log | head -1)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat server.log; echo "FAIL: the server did not listen"; exit 1; }

"$snowcap" render --connect "127.0.0.1:$port" --out headless --no-progress >headless.log 2>&1 &
headless=$!
start_viewer --connect "127.0.0.1:$port" --frames "$steps" --size 640 360 --panels none \
    --screenshot shot.png
await 'joined at step' 120
echo "hold W for 2 s"
xdotool keydown w
sleep 2
xdotool keyup w

# The viewer quits by itself at the session's last step.
for ((i = 0; i < 1200; ++i)); do
    kill -0 "$viewer" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$viewer" 2>/dev/null && fail "the viewer did not quit at step $steps"
wait "$viewer" || fail "the viewer exited with $?"
wait "$headless" || { cat headless.log; fail "the headless client exited with $?"; }
wait "$server" || { cat server.log; fail "the server exited with $?"; }
[ -s shot.png ] || fail "no screenshot"
grep -q "saved shot.png" "$log" || fail "the viewer did not say it saved its screenshot"
grep -q "refused" server.log && { cat server.log; fail "the server refused a message"; }
inputs=$(python3 -c "import json; n=json.load(open('server/stats.json'))['net']; \
print(max(c['player_inputs'] for c in n['clients']))")
[ "$inputs" -gt 0 ] || { cat server.log; fail "no player input reached the server"; }
for buffer in sim_a.pfm sim_b.pfm; do
    cmp -s "server/$buffer" "headless/$buffer" || fail "headless/$buffer differs from the server's"
done
echo "view --connect: $inputs player inputs reached the server; the headless client matches"
exit 0
