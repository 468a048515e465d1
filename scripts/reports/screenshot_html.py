#!/usr/bin/env python3
"""Renders an HTML page (e.g. results_html.py's summary) to a PNG with headless Chromium, to look at a failure
picture without a desktop, or to check in a test that the page draws what it should.

Usage: screenshot_html.py page.html -o page.png [--size 1400,2000] [--browser PATH]

Chromium comes from the Debian package `chromium` (not in scripts/setup/debian_packages.txt: only the optional
`html` CTest test needs it). It runs with a new empty profile, no network services and no sandbox (the
sandbox needs privileges containers lack). The PNG replaces its file atomically. Exit status: 0 when the PNG
was written, 1 when Chromium failed, 2 for bad input (a page that is missing or not a regular file, an output
naming the page: one line "screenshot_html: FILE: what is wrong"), 77 when no Chromium is installed (CTest's
skip code).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (checked inputs, safe outputs)

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser(explicit=None):
    if explicit:
        return explicit if shutil.which(explicit) else None
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser, page, png, size="1400,2000", timeout=120):
    """Returns "" on success, else what went wrong. The PNG is written beside png and renamed over it, so a
    failure leaves an earlier file as it was."""
    with tempfile.TemporaryDirectory(prefix="cts-chromium-") as profile:
        shot = os.path.join(profile, "screenshot.png")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + profile, "--screenshot=" + shot, "--window-size=" + size,
               "file://" + os.path.abspath(page)]
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                               universal_newlines=True)
        except subprocess.TimeoutExpired:
            return "%s did not finish within %d s" % (browser, timeout)
        if p.returncode != 0 or not os.path.exists(shot):
            return "%s exited with %d and wrote no %s:\n%s" % (browser, p.returncode, png, p.stdout[-2000:])
        try:
            report_io.write_output(png, report_io.read_bytes(shot, "PNG"), (page,))
        except report_io.ReportError as e:
            return str(e)
    return ""


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("%s: only 8-bit RGB/RGBA non-interlaced PNGs are read" % path)
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description="Screenshot of an HTML page with headless Chromium.")
    ap.add_argument("page")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--size", default="1400,2000", help="window WIDTH,HEIGHT in pixels")
    ap.add_argument("--browser", help="Chromium executable (default: the first of %s on PATH)" % ", ".join(BROWSERS))
    args = ap.parse_args(argv)
    try:
        report_io.read_bytes(args.page, "HTML page")  # Chromium would draw its error page for a missing one
        report_io.check_output(args.output, (args.page,))
    except report_io.ReportError as e:
        print("screenshot_html: %s" % e, file=sys.stderr)
        return 2
    browser = find_browser(args.browser)
    if not browser:
        print("screenshot_html: no Chromium found (apt-get install chromium)", file=sys.stderr)
        return 77
    err = screenshot(browser, args.page, args.output, args.size)
    if err:
        print("screenshot_html: error: %s" % "\n".join(report_io.printable(line) for line in err.splitlines()),
              file=sys.stderr)
        return 1
    print(report_io.printable("screenshot_html: %s -> %s" % (args.page, args.output)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
