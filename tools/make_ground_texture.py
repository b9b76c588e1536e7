#!/usr/bin/python3
"""make_ground_texture: writes assets/ground/pebbles.png, the bundled ground texture
([ground] kind = "texture", docs/ground.md).

    /usr/bin/python3 tools/make_ground_texture.py [OUT.png]   (default assets/ground/pebbles.png)

Made here, not downloaded: brown soil (periodic value noise, so the texture tiles) strewn with
grey-brown pebbles (ellipses drawn with wrap-around, lit from the upper left). Seeded: the same
bytes every run. Pure Python (zlib and struct), no image library.
"""
import math
import random
import struct
import sys
import zlib

SIZE = 256


def value_noise(cells, rng):
    """A periodic value-noise field (cells x cells lattice over SIZE), smoothstep between."""
    lattice = [[rng.random() for _ in range(cells)] for _ in range(cells)]
    field = []
    for y in range(SIZE):
        row = []
        fy = y * cells / SIZE
        y0 = int(fy)
        ty = fy - y0
        ty = ty * ty * (3 - 2 * ty)
        for x in range(SIZE):
            fx = x * cells / SIZE
            x0 = int(fx)
            tx = fx - x0
            tx = tx * tx * (3 - 2 * tx)
            a = lattice[y0 % cells][x0 % cells]
            b = lattice[y0 % cells][(x0 + 1) % cells]
            c = lattice[(y0 + 1) % cells][x0 % cells]
            d = lattice[(y0 + 1) % cells][(x0 + 1) % cells]
            row.append((a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty)
        field.append(row)
    return field


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/ground/pebbles.png"
    rng = random.Random(28)
    coarse = value_noise(8, rng)
    fine = value_noise(32, rng)
    pixels = [[None] * SIZE for _ in range(SIZE)]
    for y in range(SIZE):
        for x in range(SIZE):
            n = 0.65 * coarse[y][x] + 0.35 * fine[y][x]
            shade = 0.7 + 0.6 * n
            pixels[y][x] = [0.36 * shade, 0.26 * shade, 0.17 * shade]
    # Pebbles: ellipses with a lit upper-left rim and a dark lower-right one, a soft shadow.
    for _ in range(140):
        cx, cy = rng.uniform(0, SIZE), rng.uniform(0, SIZE)
        rx = rng.uniform(3.0, 10.0)
        ry = rx * rng.uniform(0.55, 1.0)
        angle = rng.uniform(0, math.pi)
        grey = rng.uniform(0.35, 0.7)
        tint = rng.uniform(-0.06, 0.06)
        base = [grey + tint, grey, grey - tint - 0.04]
        ca, sa = math.cos(angle), math.sin(angle)
        reach = int(rx + 3)
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                px, py = (int(cx) + dx) % SIZE, (int(cy) + dy) % SIZE
                ox, oy = int(cx) + dx - cx, int(cy) + dy - cy
                u = (ox * ca + oy * sa) / rx
                v = (-ox * sa + oy * ca) / ry
                r2 = u * u + v * v
                # the shadow first, down and to the right of the stone
                su = ((ox - 1.5) * ca + (oy - 1.5) * sa) / rx
                sv = (-(ox - 1.5) * sa + (oy - 1.5) * ca) / ry
                if r2 > 1.0 and su * su + sv * sv < 1.0:
                    pixels[py][px] = [c * 0.7 for c in pixels[py][px]]
                    continue
                if r2 > 1.0:
                    continue
                # a dome's normal, lit from the upper left (-x, -y in image rows)
                nz = math.sqrt(max(0.0, 1.0 - r2))
                light = 0.55 + 0.45 * (nz * 0.6 + (-ox / rx - oy / ry) * 0.3)
                speck = 0.92 + 0.16 * fine[py][px]
                pixels[py][px] = [max(0.0, c * light * speck) for c in base]
    raw = bytearray()
    for y in range(SIZE):
        raw.append(0)  # filter: none
        for x in range(SIZE):
            for c in pixels[y][x]:
                # linear-ish albedo to sRGB bytes
                s = max(0.0, min(1.0, c)) ** (1 / 2.2)
                raw.append(int(round(s * 255)))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    with open(out, "wb") as f:
        f.write(png)
    print(f"{out}: {SIZE} x {SIZE}, {len(png)} bytes")


if __name__ == "__main__":
    main()
