#!/usr/bin/env python3
"""Each reference-device profile, as `clinfo` shows it through the system's ICD loader, matches its target
description(s): sub-group sizes, extension names and versions, image support, fp16 and fp64.

refdev.core.ProfileTargets compares the Profile objects with the descriptions; this reads what the installed
ICD really answers (clGetDeviceInfo through ocl-icd, as any application sees it), so a fact lost or changed
between the profile and the query code fails here.

usage: check_clinfo_targets.py ICD_DIR TARGETS_DIR [--media ON|OFF] [--mma ON|OFF] [--profiles a,b,...]

A described extension is expected with its version, except those of a family the build lacks (--media,
--mma OFF) and those a requirement the device does not meet rules out (WITHHELD: the device must show that it
does not meet it, else the extension is expected). A reported extension must be one of the description's "extensions" or "other_extensions"
(a device never claims what its class lacks). Exit 0 when every profile matches, 1 otherwise, 2 for bad input.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# Each profile's descriptions: every member of the class it stands for (profile_targets_test.cpp has the same
# mapping for the Profile objects).
TARGETS = {"xe_hpc": ["pvc"], "xe_hpg": ["dg2-g10"], "xe2": ["bmg", "lnl-m"], "xe3": ["ptl"],
           "xe_lpg": ["mtl"], "cpu": ["runtime/intel-cpu"]}

# An extension the class reports that requires what clinfo shows the device lacks: {extension: (what clinfo
# shows, why)}. cl_khr_subgroups requires independent forward progress of sub-groups (reference_device/
# profile.cpp withholds it: the interpreter runs a work-group's sub-groups one after another).
WITHHELD = {"cl_khr_subgroups": (r"^    Sub-group independent forward progress +No$",
                                 "requires independent forward progress, which the device reports false")}


def clinfo(icd_dir, profile):
    env = dict(os.environ, OCL_ICD_VENDORS=icd_dir, REFDEV_PROFILE=profile)
    for name in ("REFDEV_FAULTS", "REFDEV_REPORT_AS", "OPENCL_VENDOR_PATH"):
        env.pop(name, None)
    r = subprocess.run(["clinfo"], capture_output=True, text=True, env=env, check=False)
    if r.returncode != 0:
        sys.exit(f"check_clinfo_targets: clinfo exited {r.returncode} for {profile}: {r.stderr.strip()[:300]}")
    return r.stdout


def device_facts(text):
    """The facts of the (single) device clinfo printed."""
    device = text[text.index("  Device Name"):] if "  Device Name" in text else ""
    if not device:
        return None
    facts = {}
    m = re.search(r"^  Sub-group sizes \(Intel\) +([0-9, ]+)$", device, re.M)
    facts["sub_group_sizes"] = [int(x) for x in m.group(1).split(",")] if m else []
    m = re.search(r"^  Image support +(\w+)", device, re.M)
    facts["images"] = bool(m) and m.group(1) == "Yes"
    facts["fp64"] = bool(re.search(r"^  Double-precision Floating-point support +\(cl_khr_fp64\)", device, re.M))
    facts["fp16"] = bool(re.search(r"^  Half-precision Floating-point support +\(cl_khr_fp16\)", device, re.M))
    block = device[device.index("Device Extensions with Version"):] if "Device Extensions with Version" in device else ""
    extensions = {}
    for line in block.splitlines():
        m = re.search(r"(cl_\w+) +0x[0-9a-f]+ \((\d+\.\d+\.\d+)\)$", line)
        if m:
            extensions[m.group(1)] = m.group(2)
        elif extensions:
            break
    facts["extensions"] = extensions
    facts["withheld"] = {name for name, (shown, _) in WITHHELD.items() if re.search(shown, device, re.M)}
    return facts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("icd_dir")
    ap.add_argument("targets_dir")
    ap.add_argument("--media", choices=["ON", "OFF"], default="ON")
    ap.add_argument("--mma", choices=["ON", "OFF"], default="ON")
    ap.add_argument("--profiles", default=",".join(TARGETS))
    args = ap.parse_args()
    unbuilt = set()
    if args.media == "OFF":
        unbuilt.add("cl_intel_spirv_media_block_io")
    if args.mma == "OFF":
        unbuilt.update({"cl_intel_subgroup_matrix_multiply_accumulate",
                        "cl_intel_subgroup_matrix_multiply_accumulate_tf32",
                        "cl_intel_subgroup_split_matrix_multiply_accumulate"})
    errors = []
    for profile in args.profiles.split(","):
        if profile not in TARGETS:
            sys.exit(f"check_clinfo_targets: no descriptions known for profile {profile}")
        facts = device_facts(clinfo(args.icd_dir, profile))
        if facts is None:
            errors.append(f"{profile}: clinfo shows no device")
            continue
        for target in TARGETS[profile]:
            path = os.path.join(args.targets_dir, target + ".json")
            try:
                with open(path) as f:
                    desc = json.load(f)
            except (OSError, ValueError) as e:
                sys.exit(f"check_clinfo_targets: {path}: {e}")
            where = f"{profile} vs {target}.json"
            if facts["sub_group_sizes"] != desc["sub_group_sizes"]:
                errors.append(f"{where}: sub-group sizes {facts['sub_group_sizes']} != {desc['sub_group_sizes']}")
            if facts["images"] != desc["images"]["supported"]:
                errors.append(f"{where}: image support {facts['images']} != {desc['images']['supported']}")
            for key in ("fp64", "fp16"):
                if facts[key] != desc[key]:
                    errors.append(f"{where}: {key} {facts[key]} != {desc[key]}")
            described = {k: v for k, v in desc["extensions"].items()
                         if k not in unbuilt and k not in facts["withheld"]}
            allowed = set(desc["extensions"]) | set(desc.get("other_extensions", []))
            for name, version in sorted(described.items()):
                got = facts["extensions"].get(name)
                if got is None:
                    errors.append(f"{where}: lacks {name} {version}")
                elif got != version:
                    errors.append(f"{where}: {name} is {got}, the class reports {version}")
            for name in sorted(set(facts["extensions"]) & facts["withheld"]):
                errors.append(f"{where}: reports {name}, which {WITHHELD[name][1]}")
            for name in sorted(set(facts["extensions"]) - allowed):
                errors.append(f"{where}: reports {name}, which the class lacks")
        print(f"{profile}: sizes {facts['sub_group_sizes']}, {len(facts['extensions'])} extensions, "
              f"images {'yes' if facts['images'] else 'no'}, fp64 {'yes' if facts['fp64'] else 'no'}: "
              f"checked against {', '.join(TARGETS[profile])}")
    for e in errors:
        print("FAIL " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
