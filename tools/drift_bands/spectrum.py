#!/usr/bin/python3
"""drift_bands/spectrum.py: the along-wind spectrum of a snowpack's surface after a render.

    /usr/bin/python3 tools/drift_bands/spectrum.py OUT_DIR...

For each `snowcap render --scenario tools/drift_bands/flat.toml --out OUT_DIR` output: the depth
(sim_a.pfm's first channel) and what drifted (drift_a.pfm), the border's eighth left out on each
side, each column's mean taken off; the power spectrum along the wind (+Y, the rows), averaged
over the columns. Prints the standard deviation of each field, the wavelength (in texels) of the
spectrum's peak and the share of the power at wavelengths of 2-3 texels. A Markdown table row
per directory. Pure Python (a direct DFT; the fields are 64-128 texels a side).
"""
import cmath
import math
import struct
import sys


def read_pfm(path):
    """The first channel of a PFM file, as rows (bottom row first, as the file stores them)."""
    with open(path, "rb") as f:
        kind = f.readline().strip()
        width, height = map(int, f.readline().split())
        scale = float(f.readline())
        channels = 3 if kind == b"PF" else 1
        count = width * height * channels
        values = struct.unpack(("<" if scale < 0 else ">") + "f" * count, f.read(4 * count))
    return [[values[(y * width + x) * channels] for x in range(width)] for y in range(height)]


def along_wind_spectrum(rows):
    """Power by wave number k (1..n/2) along the rows' axis, averaged over the columns."""
    n, columns = len(rows), len(rows[0])
    twiddle = [[cmath.exp(-2j * math.pi * k * y / n) for y in range(n)] for k in range(n // 2 + 1)]
    power = [0.0] * (n // 2 + 1)
    for x in range(columns):
        column = [rows[y][x] for y in range(n)]
        mean = sum(column) / n
        column = [v - mean for v in column]
        for k in range(1, n // 2 + 1):
            power[k] += abs(sum(c * w for c, w in zip(column, twiddle[k]))) ** 2 / columns
    return power


def describe(rows):
    n = len(rows)
    cut = n // 8
    inner = [row[cut:n - cut] for row in rows[cut:n - cut]]
    values = [v for row in inner for v in row]
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    power = along_wind_spectrum(inner)
    total = sum(power)
    m = len(inner)
    if total == 0.0:
        return spread, float("nan"), float("nan")
    peak = max(range(1, len(power)), key=lambda k: power[k])
    short = sum(power[k] for k in range(1, len(power)) if m / k <= 3.0) / total
    return spread, m / peak, short


def main(folders):
    if not folders:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    print("| run | depth s.d. (cm) | its peak wavelength (texels) | drifted s.d. (kg/m2) "
          "| its peak wavelength (texels) | drifted power at 2-3 texels |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder in folders:
        try:
            depth = read_pfm(folder + "/sim_a.pfm")
            drift = read_pfm(folder + "/drift_a.pfm")
        except (OSError, ValueError, struct.error) as error:
            print(f"{folder}: {error}", file=sys.stderr)
            return 2
        d_sd, d_peak, _ = describe(depth)
        r_sd, r_peak, r_short = describe(drift)
        print(f"| {folder} | {d_sd:.3g} | {d_peak:.1f} | {r_sd:.3g} | {r_peak:.1f} | {r_short:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
