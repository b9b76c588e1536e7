#!/usr/bin/env bash
# Interrupted runs (lab/run_guard.hpp): SIGINT or SIGTERM to `render`, and SIGINT to the parent
# of `sweep --jobs 2`, stop the run within seconds with one line naming the directory, exit
# 128 + the signal, no run.json (the set is not complete), no temporary file, and for the
# sweep no worker left running and no work directory left. A completed run writes run.json.
#
# Usage: InterruptCliTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
rm -rf "$out"
mkdir -p "$out"
cd "$out" || exit 1
export MESA_SHADER_CACHE_DISABLE=true

fail() {
    echo "FAIL: $*"
    exit 1
}
# wait_for FILE SECONDS
wait_for() {
    for _ in $(seq 1 $((10 * $2))); do
        [ -e "$1" ] && return 0
        sleep 0.1
    done
    fail "$1 did not appear within $2 s"
}
# stopped PID SECONDS: the process ended within SECONDS
stopped() {
    for _ in $(seq 1 $((10 * $2))); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    fail "process $1 still running $2 s after the signal"
}
check_interrupted() { # RC WANT_RC DIR SIGNAME
    cat err.txt
    [ "$1" -eq "$2" ] || fail "exit $1, expected $2"
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "$(wc -l <err.txt) lines on stderr, expected one"
    grep -q "interrupted ($4); $3 holds no complete set of outputs (no run.json)" err.txt ||
        fail "the line does not say the run was interrupted"
    [ ! -e "$3/run.json" ] || fail "an interrupted run left run.json"
    ! ls -a "$3" | grep -q '\.tmp-' || fail "temporary files left in $3"
}

echo "1. a completed render writes run.json last"
"$snowcap" --quiet render --scenario press_release --frames 3 --no-progress \
    --set snow.resolution=64 --out done 2>err.txt || fail "the short run failed: $(cat err.txt)"
grep -q '"complete": true' done/run.json || fail "no complete run.json"
grep -q '"stats.json"' done/run.json || fail "run.json does not list stats.json"

for signal in INT TERM; do
    echo "2. render, SIG$signal mid-run"
    cp -r done "run_$signal" # an old complete set: its run.json must go when the run starts
    "$snowcap" --quiet render --scenario press_release --frames 1000000 --no-progress \
        --set snow.resolution=64 --out "run_$signal" 2>err.txt &
    pid=$!
    sleep 3
    kill -"$signal" "$pid"
    stopped "$pid" 10
    wait "$pid"
    rc=$?
    want=$((128 + $(kill -l "$signal")))
    check_interrupted "$rc" "$want" "run_$signal" "SIG$signal"
done

echo "3. sweep --jobs 2, SIGINT to the parent"
"$snowcap" --quiet sweep --scenario press_release --vary capture.offset_cm=150,140,130,120 \
    --at 100 --jobs 2 --tile 32x32 --no-progress --set snow.resolution=64 --out sweep 2>err.txt &
pid=$!
wait_for sweep/.sweep_work 20
sleep 3
workers=$(pgrep -P "$pid" | tr '\n' ' ')
[ -n "$workers" ] || fail "no worker processes to stop"
kill -INT "$pid"
stopped "$pid" 10
wait "$pid"
rc=$?
for w in $workers; do
    kill -0 "$w" 2>/dev/null && fail "worker $w still running after the sweep stopped"
done
check_interrupted "$rc" 130 sweep SIGINT
[ ! -e sweep/.sweep_work ] || fail "the work directory was left"
echo "PASS"
