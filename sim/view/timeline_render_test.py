#!/usr/bin/env python3
"""Strategy: the timeline as a browser shows it (issue 14 part 5). Headless
Chromium (Debian's `chromium`, installed by ci/install-deps.sh --with-test-tools) renders the
HTML timeline of the seed regression under legacy-end-offset-marker to a PNG;
the PNG, decoded with the standard library (zlib), must not be blank and not
broken: enough of it drawn, many colours, and the colours the style sheet
gives the repeated call (red), the marker line (purple) and the saved result
record (green), so the page's style was applied. Exits 77 (skipped) only
when no chromium is installed.

  timeline_render_test.py DURASIM SOURCE_DIR WORK_DIR
"""
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import zlib

DURASIM, SOURCE, WORK = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])


def decode_png(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(colour, target, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


browser = shutil.which("chromium") or shutil.which("chromium-browser")
if browser is None:
    if os.environ.get("CI"):
        print("FAIL: no chromium, but CI installs it (ci/install-deps.sh --with-test-tools)")
        sys.exit(1)
    print("SKIPPED: no chromium (ci/install-deps.sh --with-test-tools installs it)")
    sys.exit(77)
shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
html = WORK / "legacy.html"
run = subprocess.run([DURASIM, "run", SOURCE / "scenarios/negative/legacy_end_offset_marker_once.yaml", "--timeline", html],
                     capture_output=True, text=True, timeout=120)
assert run.returncode == 0, run.stdout + run.stderr
size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', html.read_text())
width, height = int(size.group(1)) + 16, int(size.group(2)) + 16
png = WORK / "legacy.png"
command = [browser, "--headless", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={WORK / 'profile'}", f"--screenshot={png}", f"--window-size={width},{height}",
           html.resolve().as_uri()]
if os.geteuid() == 0:
    command.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
shot = subprocess.run(command, capture_output=True, text=True, timeout=120)
assert png.exists(), f"chromium wrote no PNG (exit {shot.returncode}):\n{shot.stderr[-2000:]}"
w, h, rows = decode_png(png.read_bytes())
assert (w, h) == (width, height), f"the PNG is {w}x{h}, the window {width}x{height}"
pixels = [p for row in rows for p in row]
drawn = sum(1 for p in pixels if p != (255, 255, 255))
colours = set(pixels)
print(f"{w}x{h} px, {drawn} drawn ({100 * drawn / len(pixels):.1f}%), {len(colours)} distinct colours")
failures = []
if drawn < len(pixels) // 50:
    failures.append("blank: under 2% of the page is drawn")
if len(colours) < 50:
    failures.append(f"broken: only {len(colours)} distinct colours")
for name, target in [("the repeated call", (0xe0, 0x20, 0x20)), ("the marker line", (0x8e, 0x5b, 0xd0)),
                     ("the saved result record", (0x7f, 0xd1, 0x8b))]:
    count = sum(1 for p in pixels if near(p, target, 12))
    print(f"  {name}: {count} px")
    if count < 20:
        failures.append(f"no {name} colour: the style sheet was not applied")
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
