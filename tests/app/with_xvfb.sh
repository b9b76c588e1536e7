#!/usr/bin/env bash
# An X server of its own for one command: `with_xvfb.sh [-a] [-s "SERVER ARGS"] COMMAND ...`, the
# two options of xvfb-run the tests use. xvfb-run -a takes the first display number with no lock
# file and only then starts Xvfb, so two runs starting together (ctest -j, other checkouts on the
# same machine) can take the same number, and one fails with "Xvfb failed to start". Here Xvfb
# takes a free number itself (-displayfd writes it once the server accepts connections), so no
# number is ever shared and the command starts only when its display is up.
set -u

server_args=()
while [ $# -gt 0 ]; do
    case "$1" in
    -a | --auto-servernum) shift ;;
    -s | --server-args)
        read -r -a server_args <<<"$2"
        shift 2
        ;;
    --)
        shift
        break
        ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "with_xvfb.sh: no command to run" >&2
    exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/with_xvfb.XXXXXX") || exit 2
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null
        wait "$server" 2>/dev/null
    fi
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

Xvfb -displayfd 3 -nolisten tcp "${server_args[@]}" 3>"$dir/display" 2>"$dir/server.log" &
server=$!
# Xvfb writes the number when it is ready; a loaded machine can take seconds.
for _ in $(seq 1 600); do
    [ -s "$dir/display" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "with_xvfb.sh: Xvfb exited before it was ready:" >&2
        cat "$dir/server.log" >&2
        server=""
        exit 2
    fi
    sleep 0.1
done
if [ ! -s "$dir/display" ]; then
    echo "with_xvfb.sh: Xvfb not ready after 60 s" >&2
    exit 2
fi
DISPLAY=":$(tr -d '[:space:]' <"$dir/display")" "$@"
exit $?
