#!/usr/bin/env python3
"""CTest test html.screenshot: the summary page of a run under a planted 2D block IO fault, rendered by headless
Chromium, shows the mismatch grids. Runs the runner (CTS_RUNNER) with REFDEV_FAULTS=oob_load_stale on a few
load cases, writes the page with --open-failures and without, and reads both screenshots: the expanded page
must hold pixels of the mismatch-cell colour, the collapsed one none (so the pixels are the pictures', not some
other red). Exit 77 (skipped) without Chromium or a built runner. Keeps its files in CTS_HTML_CHECK_DIR when
set (to look at the PNGs), else in a temporary directory.
"""

import os
import subprocess
import sys
import tempfile

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, SCRIPTS)  # scripts/: the import root
from reports import screenshot_html  # noqa: E402

MARK_RGB = (0xd3, 0x2f, 0x2f)  # failures_html.CSS: table.pic td.mis
CASES = "2d_block_io.load.e1.w16.h8.*"


def mark_pixels(png):
    _, _, rows = screenshot_html.read_png(png)
    return sum(1 for row in rows for px in row if px == MARK_RGB)


def run(out_dir):
    runner = os.environ.get("CTS_RUNNER", "")
    browser = screenshot_html.find_browser()
    if not browser or not runner or not os.path.exists(runner):
        print("skipped: %s" % ("no Chromium (apt-get install chromium)" if not browser else "CTS_RUNNER not built"))
        return 77
    report = os.path.join(out_dir, "fault.json")
    env = dict(os.environ, REFDEV_FAULTS="oob_load_stale")
    p = subprocess.run([runner, CASES, "--json=" + report], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 1:
        print("the runner under oob_load_stale should fail (exit 1), got %d:\n%s" % (p.returncode, p.stdout[-3000:]))
        return 1
    counts = {}
    for name, flags in (("open", ["--open-failures"]), ("collapsed", [])):
        page, png = os.path.join(out_dir, name + ".html"), os.path.join(out_dir, name + ".png")
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "reports/results_html.py"), report, "-o", page] + flags,
                       check=True)
        err = screenshot_html.screenshot(browser, page, png, "1400,2000")
        if err:
            print(err)
            return 1
        size = os.path.getsize(png)
        counts[name] = mark_pixels(png)
        print("%s: %s, %d bytes, %d mismatch-cell pixels" % (name, png, size, counts[name]))
        if size < 10000:
            print("%s is too small to hold the page" % png)
            return 1
    if counts["open"] < 50 or counts["collapsed"] != 0:
        print("expected the marked cells drawn on the expanded page only: %r" % counts)
        return 1
    return 0


def main():
    keep = os.environ.get("CTS_HTML_CHECK_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        return run(keep)
    with tempfile.TemporaryDirectory(prefix="cts-html-check-") as tmp:
        return run(tmp)


if __name__ == "__main__":
    sys.exit(main())
