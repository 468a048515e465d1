"""Runner runs under a planted fault, shared by the campaigns (fault_campaign.py) and the default-run check
(fault_default_run.py): the faults refdev_faults lists and one run's failing and passing cases. A library: both
scripts import it, it imports neither."""

import os
import subprocess
import tempfile
import time

from reports import report_io

CORE_FAULTS = {"hang", "crash"}
PASSING = {"pass", "skip", "notsupported", "not_supported"}


class UsageError(Exception):
    """A bad argument or name: one line and exit 2."""


def faults_from_tool(tool, exclude=CORE_FAULTS):
    try:
        out = subprocess.run([tool, "--names"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True,
                             universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("fault_campaign: cannot list faults with %s: %s" % (tool, e))
    return [n for n in out.split() if n not in exclude]


def run_cases(args, profile, fault):
    """Runs the runner once; returns (failing case names, counts by status, seconds)."""
    env = dict(os.environ)
    env["OCL_ICD_VENDORS"] = args.icd
    if profile:
        env["REFDEV_PROFILE"] = profile
    if fault:
        env["REFDEV_FAULTS"] = fault
    else:
        env.pop("REFDEV_FAULTS", None)
    with tempfile.TemporaryDirectory(prefix="fault_campaign_") as tmp:
        json_path = os.path.join(tmp, "results.json")
        cmd = [args.runner] + args.groups + ["--json=" + json_path] + args.runner_args
        start = time.time()
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        seconds = time.time() - start
        if proc.returncode not in (0, 1) or not os.path.exists(json_path):
            tail = "\n".join(report_io.printable(line) for line in proc.stdout.splitlines()[-15:])
            raise SystemExit("fault_campaign: runner failed (exit %d) for profile %s fault %s:\n%s" %
                             (proc.returncode, profile or "default", fault or "none", tail))
        try:
            doc = report_io.load_report(json_path)
        except report_io.ReportError as e:
            raise SystemExit("fault_campaign: the runner wrote a bad report for profile %s fault %s: %s" %
                             (report_io.printable(profile or "default"), report_io.printable(fault or "none"), e))
        if doc.get("aborted") == "device":  # no device: the report says nothing ran
            # The reference device refuses to open for a REFDEV_PROFILE or REFDEV_FAULTS name it does not know.
            raise UsageError("the reference device did not open with profile %s%s (an unknown profile or fault "
                             "name?): %s" % (profile or "default", " and fault " + fault if fault else "",
                                             (doc.get("errors") or ["no error recorded"])[0][:240]))
        results = doc.get("results", {})
        cases = {c["name"]: c for c in doc.get("cases", [])}
    counts = {}
    failing, passing = [], []
    for name, status in sorted(results.items()):
        status = status.lower()
        counts[status] = counts.get(status, 0) + 1
        if status not in PASSING:
            failing.append(name)
        elif status == "pass":
            passing.append(name)
    return failing, counts, seconds, passing, cases
