#!/usr/bin/env bash
# Faults injected into a running viewer (`snowcap -vv view` under Xvfb, keys from xdotool):
#  1. a shader file broken on disk: the hot reload logs file:line once, shows it in the control
#     window, and the last good program keeps drawing (the paused picture does not change);
#     the file mended, the program is rebuilt and the error line goes;
#  2. the screenshot directory replaced by a regular file: F12 gives one line naming the path,
#     the file is untouched, the viewer carries on; the directory back, F12 saves again.
# (A scenario replaced by garbage and a hostile mesh typed in are in ViewerKeysTest.sh.)
#
# Usage (under xvfb-run): ViewerFaultsTest.sh SNOWCAP VIEWER_PICTURE OUT_DIR
set -u
snowcap="$1"
picture="$2"
out="$3"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
source "$source_dir/tests/app/viewer_x11.sh"
enter_out_dir
measure() { "$picture" "$2" "$1" $3; }
scene="400 0 600 640"  # both panes, right of the side bar (x 0-399 of the 1000 px window)
controls="0 0 400 250" # the side bar's top: the control window, where the shader error line shows

# The viewer reads its shaders from a copy, so the test can break one.
cp -r "$source_dir/shaders" "$out/shaders"
export SNOWCAP_SHADER_DIR="$out/shaders"
start_viewer --scenario "$source_dir/config/scenarios/decay_compare.toml" --size 1000 640 \
    --set snow.resolution=64
xdotool key --delay 1 space
await "key Space: paused" 30
good=$(shot)
[ "$(measure "$good" red "$controls")" -eq 0 ] || fail "an error line shows before any fault"

echo "break the surface shader on disk: file:line, the last good program keeps drawing"
file=surface/surface.frag
cp "$out/shaders/$file" "$out/good.frag"
sed -i '9i this line is not GLSL' "$out/shaders/$file" # line 9 of the file on disk
await "shaders/$file:9: error" 30
frames 10 # polled every frame: it must not be rebuilt (or logged) again
failures=$(count "shader reload failed")
programs=$(grep -c "shaders/$file:9: error" "$log")
frames 5
[ "$(count "shader reload failed")" -eq "$failures" ] || fail "the broken shader is retried every frame"
broken=$(shot)
red=$(measure "$broken" red "$controls")
changed=$(measure "$good" diff "$broken $scene")
echo "$failures programs failed ($programs lines name $file:9); error line $red px; $changed scene px changed"
[ "$red" -gt 200 ] || fail "the control window shows no error line ($red px)"
[ "$changed" -lt 200 ] || fail "the picture changed with the shader broken ($changed px): not the last good program"

echo "mend it: rebuilt, the error line goes"
reloaded=$(count "reloaded shader program")
cp "$out/good.frag" "$out/shaders/$file"
await "reloaded shader program" 30 $((reloaded + failures))
frames 2
mended=$(shot)
[ "$(measure "$mended" red "$controls")" -eq 0 ] || fail "the error line stays after the file is mended"
changed=$(measure "$good" diff "$mended $scene")
[ "$changed" -lt 200 ] || fail "the rebuilt program draws a different picture ($changed px)"

echo "the screenshot directory replaced by a file: one line, the viewer carries on"
saved=$(ls out | wc -l)
rm -rf out
printf 'a file where out/ was\n' >out
xdotool key --delay 1 F12
await "cannot write 'out/snowcap_" 30
line=$(grep "cannot write 'out/snowcap_" "$log")
echo "$line"
[ "$(echo "$line" | wc -l)" -eq 1 ] || fail "more than one line for the failed screenshot"
echo "$line" | grep -q "Not a directory" || fail "the line does not say why"
[ "$(cat out)" = "a file where out/ was" ] || fail "the file in out/'s place was touched"
frames 3
rm out
again=$(shot)
[ -f "$again" ] || fail "no screenshot after out/ came back ($again)"
echo "saved $again ($saved before the fault)"

quit_viewer
echo "PASS"
