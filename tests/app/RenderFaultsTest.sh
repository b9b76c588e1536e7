#!/usr/bin/env bash
# Output faults for `snowcap render --out DIR`: each gives exactly one line naming the path and
# the reason, a non-zero exit, and nothing half-written (no partial file, no temporary left,
# the previous run's outputs in the directory byte for byte intact).
#  1. the output directory's parent is a regular file;
#  2. the disk fills up mid-write: RLIMIT_FSIZE (`ulimit -f`, SIGXFSZ ignored so write(2)
#     fails with EFBIG as on a full disk), which root gets too and needs no mount;
#  3. a read-only output directory (refused before the run: its lock cannot be made there): as
#     an unprivileged user (root ignores permission bits; as
#     root the run drops to nobody with setpriv, and is skipped with a message where it cannot).
#
# Usage: RenderFaultsTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$1"
out="$2"
rm -rf "$out"
mkdir -p "$out"
cd "$out" || exit 1
export MESA_SHADER_CACHE_DISABLE=true # the run's only files are its outputs

fail() {
    echo "FAIL: $*"
    exit 1
}
render() { # render DIR ARGS...: a short run, stderr to err.txt
    local dir="$1"
    shift
    "$snowcap" --quiet render --scenario press_release --frames 12 --no-progress \
        --set snow.resolution=64 --out "$dir" "$@" 2>err.txt
}
# one_line RC WANT_RC PATTERN: exit code and exactly one stderr line matching PATTERN.
one_line() {
    cat err.txt
    [ "$1" -eq "$2" ] || fail "exit $1, expected $2"
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "$(wc -l <err.txt) lines on stderr, expected one"
    grep -q -- "$3" err.txt || fail "the line does not match '$3'"
}
no_temporaries() {
    ! ls -a "$1" | grep -q '\.tmp-' || fail "temporary files left in $1: $(ls -a "$1" | grep '\.tmp-')"
}

echo "1. the output directory's parent is a regular file"
printf 'not a directory\n' >afile
render afile/run
one_line $? 2 "afile/run: cannot create output directory (Not a directory)"
[ "$(cat afile)" = "not a directory" ] || fail "the file in the way was touched"

echo "2. the disk fills up: the previous outputs stay whole"
render good --every 6 || fail "the reference run failed: $(cat err.txt)"
# run.json is the complete set's manifest: a run that fails must not leave it (checked below).
(cd good && md5sum $(ls | grep -v '^run.json$') >../good.md5)
[ -e good/run.json ] || fail "the reference run wrote no run.json"
ls good
# 8 KiB per file: the first frame PNG cannot be written whole; the run stops there.
(
    trap '' XFSZ
    ulimit -f 8
    render good --every 6
)
one_line $? 1 "cannot write 'good/frame_000006.png': File too large"
(cd good && md5sum --quiet -c ../good.md5) || fail "a previous output was changed"
no_temporaries good
[ ! -e good/run.json ] || fail "a failed run left run.json (the old set is not this run's)"
# Without frames: the end-of-run outputs (the first, a 64 x 64 float PFM, is 16 KiB).
(
    trap '' XFSZ
    ulimit -f 12
    render good
)
one_line $? 1 "cannot write 'good/[a-z_]*\.[a-z]*': File too large"
(cd good && md5sum --quiet -c ../good.md5) || fail "a previous output was changed"
no_temporaries good

echo "3. a read-only output directory"
mkdir ro
chmod 555 ro
as_user=()
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null &&
        setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$snowcap" 2>/dev/null; then
        as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    else
        echo "SKIP 3: running as root (which ignores permission bits) and cannot drop to uid 65534 with setpriv"
        echo "PASS"
        exit 0
    fi
fi
"${as_user[@]}" env HOME="$out" "$snowcap" --quiet render --scenario press_release --frames 12 \
    --no-progress --set snow.resolution=64 --out ro 2>err.txt
# Found before the run starts: the run's lock cannot be created there.
one_line $? 2 "ro: cannot take the output directory (Permission denied)"
[ -z "$(ls -A ro)" ] || fail "the read-only directory holds $(ls -A ro)"
echo "PASS"
