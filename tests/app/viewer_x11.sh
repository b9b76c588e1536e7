# Shared by the real-input viewer tests (ViewerKeysTest.sh, ViewerMouseTest.sh), sourced:
# starts `snowcap -vv view` on the Xvfb display and waits on the viewer's log rather than on
# fixed sleeps (llvmpipe draws 2-9 frames a second, fewer on a loaded machine): -vv logs a line
# per frame drawn, so `frames 2` waits until every X event sent so far has been seen by a whole
# frame (ImGui 1.86 reads the pointer and the buttons once a frame; a press is latched for one
# frame, a release is not, so a click needs two frames before the pointer moves on).
#
# The caller sets snowcap and out, sources this file and calls enter_out_dir: out is emptied and
# becomes the viewer's working directory, with its own config (the default panel layout, not a
# user's) and its log.

enter_out_dir() {
    rm -rf "$out"
    mkdir -p "$out"
    cd "$out" || exit 1
    export XDG_CONFIG_HOME="$out/config"
    # An empty saved layout: not a first run (no first-run hint growing the control window over
    # the scene these tests measure), and every window still opens at its start place.
    mkdir -p "$XDG_CONFIG_HOME/snowcap"
    : >"$XDG_CONFIG_HOME/snowcap/imgui.ini"
    log="$out/viewer.log"
}

fail() {
    echo "FAIL: $*"
    echo "---- viewer log (less the frame lines)"
    grep -v '^trace: frame ' "$log"
    kill "$viewer" 2>/dev/null
    exit 1
}
count() { grep -c -- "$1" "$log"; }
# Waits (up to $2 s) until the log holds at least $3 lines matching $1.
await() {
    local pattern="$1" seconds="$2" want="${3:-1}" i
    for ((i = 0; i < seconds * 10; ++i)); do
        [ "$(count "$pattern")" -ge "$want" ] && return 0
        kill -0 "$viewer" 2>/dev/null || fail "the viewer exited while waiting for '$pattern'"
        sleep 0.1
    done
    fail "waited ${seconds} s for '$pattern' (x$want)"
}

# start_viewer ARGS...: runs the viewer in the background and focuses its window.
start_viewer() {
    "$snowcap" -vv view "$@" >"$log" 2>&1 &
    viewer=$!
    window=$(timeout 60 xdotool search --sync --onlyvisible --name snowcap | head -1)
    [ -n "$window" ] || fail "no viewer window appeared"
    xdotool mousemove --window "$window" 5 5
    xdotool windowfocus --sync "$window"
    await '^trace: frame ' 60 2 # drawing
}

# frames N: waits until the viewer has drawn N more frames.
frames() {
    await '^trace: frame ' 60 $(($(count '^trace: frame ') + $1))
}

# shot: taps F12, waits for the screenshot, and prints its path (the log's newest "saved"
# line). Fails when the viewer stopped taking keys.
shot() {
    local before
    before=$(count 'key F12')
    xdotool key --delay 1 F12
    await 'key F12' 30 $((before + 1))
    await '^info: saved \|cannot write' 30 $((before + 1))
    grep '^info: saved ' "$log" | tail -1 | sed 's/^info: saved //'
}

# quit_viewer: taps Esc and fails unless the viewer quits cleanly within 30 s.
quit_viewer() {
    xdotool key --delay 1 Escape
    for ((i = 0; i < 300; ++i)); do
        kill -0 "$viewer" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$viewer" 2>/dev/null && fail "Esc did not quit the viewer"
    wait "$viewer"
    rc=$?
    [ "$rc" -eq 0 ] || fail "the viewer exited with $rc"
}

# The state the newest screenshot was drawn with (viewer.cpp logs it with each one).
view_state() { grep '^debug: view: ' "$log" | tail -1 | sed 's/^debug: view: //'; }
# One field of it: view_field divider|yaw|pitch|distance|deformers.
view_field() {
    view_state | tr ',' '\n' | sed 's/^ *//' | awk -v k="$1" '
        $1 == k { print $2 } $2 == k { print $1 }'
}
