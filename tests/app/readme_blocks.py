#!/usr/bin/env python3
"""Runs every command of README.md's ```sh blocks, so the README cannot rot.

Usage: readme_blocks.py SNOWCAP SOURCE_DIR OUT_DIR [--as-written [--slack F]]

Each `build/release/snowcap ...` line runs as written (its flags, scenarios and files must still
exist), in a scratch directory that sees the tree's config/ and assets/, with what makes it
short on a headless 2-core machine and nothing else changed: few steps (--frames), small images
(--size), a tiny bench and sweep, a video of every step. A line that opens the viewer runs as
the scripted viewer (view --frames N), which with no display goes through the headless context.
The set-up scripts (./tools/run, ./tools/test) are not run: they build, and the suite is what runs
this. Every line must exit 0 within its limit; the time of each is printed.

With --as-written each line runs exactly as written (full steps, full size), and its limit is
the time its comment states ("about 4 min", "10-15 min": the larger end, "about 20 s"), or two
minutes where it states none, times --slack (default 1.5, for a busy machine). That is the check
that the README's stated times are true; it takes as long as the README says (about 20 min with
the bench), so it is run by hand, not by the suite (timing stays out of pass/fail tests).
"""
import argparse
import re
import os
import shlex
import subprocess
import sys
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("snowcap")
parser.add_argument("source")
parser.add_argument("out")
parser.add_argument("--as-written", action="store_true",
                    help="run each line as written, within the time its comment states")
parser.add_argument("--slack", type=float, default=1.5,
                    help="with --as-written: the stated time is multiplied by this")
ARGS = parser.parse_args()
SNOWCAP, SOURCE, OUT = (os.path.abspath(p) for p in (ARGS.snowcap, ARGS.source, ARGS.out))
LIMIT_S = 120  # the README promises minutes at most; with these frame counts it is seconds
UNIT_S = {"s": 1, "sec": 1, "min": 60, "h": 3600}
SHORT = {"--frames": "3", "--at": "0.02,0.05", "--video-every": "1"}
EXTRA = {  # what a subcommand gets besides, unless the line gives it
    "render": ["--frames", "3", "--size", "160", "90", "--no-progress"],
    "view": ["--frames", "3", "--size", "160", "90"],
    "sweep": ["--tile", "64x36", "--no-progress"],
    "bench": ["--sizes", "64", "--screens", "64x36", "--frame-size", "64x36", "--frames", "1",
              "--case-budget", "0.1", "--set", "snow.resolution=64", "--only", "copy,accumulate",
              "--no-progress"],
}
SKIPPED_PREFIXES = ("./tools/run", "./tools/test")


def commands(readme):
    inside = False
    for number, line in enumerate(open(readme, encoding="utf-8"), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            inside = stripped == "```sh" if not inside else False
            continue
        if inside and stripped and not stripped.startswith("#"):
            yield number, stripped


def shortened(args):
    """The line's arguments with the short values and the subcommand's extras."""
    if len(args) == 1:  # the bare viewer
        args = args + ["view"]
    command = next((a for a in args[1:] if not a.startswith("-")), "")
    out = [args[0]]
    i = 1
    while i < len(args):
        out.append(args[i])
        if args[i] in SHORT and i + 1 < len(args):
            out.append(SHORT[args[i]])
            i += 2
            continue
        i += 1
    given = set(out)
    extra = EXTRA.get(command, [])
    j = 0
    while j < len(extra):  # a flag and its values, unless the line has that flag
        k = j + 1
        while k < len(extra) and not extra[k].startswith("--"):
            k += 1
        if extra[j] not in given:
            out += extra[j:k]
        j = k
    # Absolute scratch paths of the README (/tmp/...) go into this test's directory.
    return [os.path.join(OUT, a[1:]) if a.startswith("/tmp/") else a for a in out]


def stated_limit(comment):
    """Seconds a line's comment promises ("about 4 min" -> 240, "10-15 min" -> 900), or None."""
    found = None
    for match in re.finditer(r"(\d+(?:\.\d+)?)(?:\s*[-\u2013]\s*(\d+(?:\.\d+)?))?\s*(min|sec|s|h)\b",
                             comment):
        seconds = float(match.group(2) or match.group(1)) * UNIT_S[match.group(3)]
        found = max(found or 0.0, seconds)
    return found


def as_written(args):
    """The line's arguments as written; only its /tmp/ paths go into this run's directory. With
    no display (this runs headless) a viewer line renders through the headless context."""
    return [os.path.join(OUT, a[1:]) if a.startswith("/tmp/") else a for a in args]


def main():
    os.makedirs(os.path.join(OUT, "tmp"), exist_ok=True)
    for name in ("config", "assets"):
        link = os.path.join(OUT, name)
        if not os.path.lexists(link):
            os.symlink(os.path.join(SOURCE, name), link)
    env = dict(os.environ)
    for display in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(display, None)  # headless, as on a server or in CI
    ran = failed = 0
    for number, line in commands(os.path.join(SOURCE, "README.md")):
        text, _, comment = line.partition(" #")  # the comment after a command
        text = text.strip()
        if text.startswith(SKIPPED_PREFIXES):
            print(f"README.md:{number}: not run (builds): {text}")
            continue
        args = shlex.split(text)
        if not args or args[0] != "build/release/snowcap":
            print(f"README.md:{number}: not a snowcap command: {text}")
            failed += 1
            continue
        limit = LIMIT_S
        if ARGS.as_written:
            run = [SNOWCAP] + as_written(args)[1:]
            limit = (stated_limit(comment) or LIMIT_S) * ARGS.slack
        else:
            run = [SNOWCAP] + shortened(args)[1:]
        started = time.monotonic()
        try:
            result = subprocess.run(run, cwd=OUT, env=env, capture_output=True, text=True,
                                    timeout=limit)
            code, errors = result.returncode, result.stderr
        except subprocess.TimeoutExpired:
            code, errors = "timeout", f"still running after {limit:g} s"
        seconds = time.monotonic() - started
        ran += 1
        status = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"README.md:{number}: {seconds:6.2f} s (limit {limit:g} s) {status}: "
              f"{' '.join(run[1:])}")
        if code != 0:
            failed += 1
            print("    " + errors.strip().replace("\n", "\n    "))
    print(f"{ran} README commands run, {failed} failed")
    if ran == 0:
        print("no snowcap command found in README.md")
        return 1
    return 1 if failed else 0


sys.exit(main())
