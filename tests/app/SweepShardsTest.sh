#!/usr/bin/env bash
# `snowcap sweep --plan / --shard / --merge` (docs/cluster.md) against one process running the
# same sweep (press_release at 64², 90 steps, seven decays of sim a with a scene key beside them,
# snow.depth_cm, so that each combination is a field of its own: seven batches, and every split
# below has work in every shard; the press lifts at 1 s, so the tiles at 1.5 s differ by decay):
#  1. the plan: plan.json holds every combination, its index, its resolved settings, the
#     snowcap version and commit;
#  2. shards 1/1, 1..3/3 and 1..7/7 merged write the same sheet.png, sweep.csv and plots as one
#     process, byte for byte, and the same sweep.json but for its "run" (timings); so does a
#     packed sweep (nine decays of sim b: two fields) in two shards;
#  3. a shard killed midway leaves nothing the merge takes for complete (the merge names it
#     missing, writes nothing); run again it completes, and a completed shard is skipped;
#  4. shards of two plans, or of two builds, are refused in one line naming the shard.
# Usage: SweepShardsTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
source "$(cd "$(dirname "$0")" && pwd)/sweep_compare.sh"
rm -rf "$out"
mkdir -p "$out"
cd "$out" || exit 1

fail() {
    echo "FAIL: $*"
    exit 1
}
request=(--scenario press_release --set view.width=128 --set view.height=72
    --vary sim.a.decay=0.8,0.9,0.95,0.97,0.99,0.995,0.999 --vary snow.depth_cm=30
    --at 0.5,1.5 --tile 64x48)
sweep() { "$snowcap" --quiet sweep --no-progress "$@"; }

sweep "${request[@]}" --out one || fail "the one-process sweep failed"
sweep "${request[@]}" --plan plan || fail "--plan failed"
[ ! -e plan/sheet.png ] && [ ! -e plan/shards ] || fail "--plan ran something"
python3 - plan/plan.json <<'PY' || fail "plan.json lacks what a shard needs (above)"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["snowcap"]["version"] and p["snowcap"]["commit"], "no version or commit"
c = p["combinations"]
assert [x["index"] for x in c] == list(range(7)), "indices"
assert [x["values"] for x in c] == [[v, "30"] for v in "0.8,0.9,0.95,0.97,0.99,0.995,0.999".split(",")]
assert all(x["settings"]["sim"]["a"]["decay"] == float(x["values"][0]) for x in c), "settings"
assert all("sim" in x["settings"] for x in c), "not every key resolved"
assert len(p["batches"]) == 7, "batches"
PY

# 2. Every split merges to what one process wrote.
for n in 1 3 7; do
    mkdir -p split$n && cp plan/plan.json split$n/
    for k in $(seq 1 $n); do
        sweep --plan split$n --shard $k/$n || fail "shard $k/$n failed"
    done
    [ "$(ls split$n/shards)" = "$(seq 1 $n)" ] || fail "split$n/shards holds $(ls -a split$n/shards)"
    sweep --merge split$n || fail "merging $n shards failed"
    same_outputs one split$n
    echo "ok: $n shard(s) merged byte for byte as one process"
done

# A packed sweep (one sim's key: nine decays, two fields of eight and one) split in two.
packed=(--scenario press_release --set view.width=128 --set view.height=72
    --vary sim.b.decay=0.95,0.99,0.9,0.91,0.92,0.93,0.94,0.96,0.97 --at 0.5,1.5 --tile 64x48)
sweep "${packed[@]}" --out packed_one || fail "the packed one-process sweep failed"
sweep "${packed[@]}" --plan packed || fail "--plan (packed) failed"
sweep --plan packed --shard 2/2 && sweep --plan packed --shard 1/2 && sweep --merge packed ||
    fail "the packed shards or their merge failed"
same_outputs packed_one packed
echo "ok: a packed sweep in 2 shards merged byte for byte as one process"

# 3. Shard 1 of 2 (four batches) killed after its first batch was saved.
mkdir -p killed && cp plan/plan.json killed/
sweep --plan killed --shard 2/2 || fail "shard 2/2 failed"
"$snowcap" --quiet sweep --no-progress --plan killed --shard 1/2 &
pid=$! # snowcap itself, not a subshell around it
for _ in $(seq 1 1200); do
    ls killed/shards/.1.partial-*/batch_0.json >/dev/null 2>&1 && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
[ ! -e killed/shards/1 ] || fail "shard 1/2 finished before it could be killed (make it longer)"
ls -d killed/shards/.1.partial-* >/dev/null 2>&1 || fail "the killed shard left no partial directory"
sweep --merge killed 2>err.txt
rc=$?
cat err.txt
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "missing shard 1/2" err.txt ||
    fail "the merge of a killed shard: exit $rc, expected one line naming shard 1/2 missing"
[ ! -e killed/sheet.png ] && [ ! -e killed/sweep.csv ] || fail "the merge wrote outputs anyway"
sweep --plan killed --shard 1/2 || fail "shard 1/2 run again failed"
! ls -d killed/shards/.1.partial-* >/dev/null 2>&1 || fail "the partial directory is still there"
stamp=$(stat -c %Y.%i killed/shards/2/shard.json)
"$snowcap" sweep --no-progress --plan killed --shard 2/2 >err.txt 2>&1 || fail "shard 2/2 again failed"
grep -q "is already complete in .*; skipped" err.txt || fail "shard 2/2 run again was not skipped: $(cat err.txt)"
[ "$(stat -c %Y.%i killed/shards/2/shard.json)" = "$stamp" ] || fail "the skipped shard was rewritten"
sweep --merge killed || fail "the merge after the rerun failed"
same_outputs one killed
echo "ok: a killed shard is not merged; run again it completes"

# 4. Mixed shards: one from another plan (another --at), one from another build.
refused() { # refused DIR PATTERN: merge exits 2 with one line matching, writes nothing
    sweep --merge "$1" 2>err.txt
    local rc=$?
    cat err.txt
    [ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$2" err.txt ||
        fail "merging $1: exit $rc, expected one line matching '$2'"
    [ ! -e "$1/sheet.png" ] && [ ! -e "$1/sweep.csv" ] || fail "merging $1 wrote outputs"
}
other=(--scenario press_release --set view.width=128 --set view.height=72
    --vary sim.a.decay=0.8,0.9,0.95 --vary snow.depth_cm=30 --at 0.5,1.5 --tile 64x48)
sweep "${other[@]}" --plan otherplan || fail "planning the other sweep failed"
sweep --plan otherplan --shard 2/3 || fail "the other plan's shard 2/3 failed"
mkdir -p mixed && cp plan/plan.json mixed/ && cp -r split3/shards mixed/
rm -rf mixed/shards/2 && cp -r otherplan/shards/2 mixed/shards/2
refused mixed "shard 2 is from another plan"
mkdir -p build && cp plan/plan.json build/ && cp -r split3/shards build/
sed -i 's/"commit": "[^"]*"/"commit": "0123456789ab"/' build/shards/3/shard.json
refused build "shard 3 was run by snowcap .* (0123456789ab)"
# A shard from another build is refused before it runs, too.
sed 's/"commit": "[^"]*"/"commit": "0123456789ab"/' plan/plan.json >otherbuild.json
mkdir -p otherbuild && mv otherbuild.json otherbuild/plan.json
sweep --plan otherbuild --shard 1/7 2>err.txt
rc=$?
cat err.txt
[ $rc -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "planned by snowcap .*0123456789ab" err.txt ||
    fail "a shard of another build's plan: exit $rc, expected 2 and one line"
[ ! -e otherbuild/shards/1 ] || fail "a shard of another build's plan ran"
echo "ok: shards of another plan or build are refused in one line"
