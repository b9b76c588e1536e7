#!/usr/bin/env python3
"""Runs every command of README.md's ```sh blocks, so the README cannot rot.

Usage: readme_blocks.py SNOWCAP SOURCE_DIR OUT_DIR

Each `build/release/snowcap ...` line runs as written (its flags, scenarios and files must still
exist), in a scratch directory that sees the tree's config/ and assets/, with what makes it
short on a headless 2-core machine and nothing else changed: few steps (--frames), small images
(--size), a tiny bench and sweep, a video of every step. A line that opens the viewer runs as
the scripted viewer (view --frames N), which with no display goes through the headless context.
The set-up scripts (./tools/run, ./tools/test) are not run: they build, and the suite is what runs
this. Every line must exit 0 within its limit; the time of each is printed.
"""
import os
import shlex
import subprocess
import sys
import time

SNOWCAP, SOURCE, OUT = sys.argv[1:4]
LIMIT_S = 120  # the README promises minutes at most; with these frame counts it is seconds
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
        text = line.split(" #")[0].strip()  # the comment after a command
        if text.startswith(SKIPPED_PREFIXES):
            print(f"README.md:{number}: not run (builds): {text}")
            continue
        args = shlex.split(text)
        if not args or args[0] != "build/release/snowcap":
            print(f"README.md:{number}: not a snowcap command: {text}")
            failed += 1
            continue
        run = [SNOWCAP] + shortened(args)[1:]
        started = time.monotonic()
        try:
            result = subprocess.run(run, cwd=OUT, env=env, capture_output=True, text=True,
                                    timeout=LIMIT_S)
            code, errors = result.returncode, result.stderr
        except subprocess.TimeoutExpired:
            code, errors = "timeout", f"still running after {LIMIT_S} s"
        seconds = time.monotonic() - started
        ran += 1
        status = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"README.md:{number}: {seconds:6.2f} s {status}: {' '.join(run[1:])}")
        if code != 0:
            failed += 1
            print("    " + errors.strip().replace("\n", "\n    "))
    print(f"{ran} README commands run, {failed} failed")
    if ran == 0:
        print("no snowcap command found in README.md")
        return 1
    return 1 if failed else 0


sys.exit(main())
