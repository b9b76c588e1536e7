# Sourced by the sweep shard tests: same_outputs ONE MERGED fails unless a merged sweep wrote
# the same bytes as one process: sheet.png, sweep.csv and every plot with cmp, and sweep.json
# equal once the "run" object (timings, hosts, processes: the only part allowed to differ) is
# taken out of both.
same_outputs() {
    local one="$1" merged="$2" name
    for name in sheet.png sweep.csv; do
        cmp "$one/$name" "$merged/$name" || fail "$merged/$name differs from $one/$name"
    done
    [ -d "$one/plots" ] && [ -n "$(ls "$one/plots")" ] || fail "$one/plots is empty"
    diff <(cd "$one/plots" && ls) <(cd "$merged/plots" && ls) >/dev/null ||
        fail "$merged/plots holds other plots than $one/plots"
    for name in $(cd "$one/plots" && ls); do
        cmp "$one/plots/$name" "$merged/plots/$name" || fail "$merged/plots/$name differs"
    done
    python3 - "$one/sweep.json" "$merged/sweep.json" <<'PY' || fail "$merged/sweep.json differs outside \"run\""
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for j in (a, b):
    if "run" not in j:
        sys.exit("no run object in sweep.json")
    del j["run"]
sys.exit(0 if a == b else "sweep.json differs")
PY
}
