#!/usr/bin/env python3
"""Two (or more) `assay` binaries side by side on issue 25's workloads, wall time, interleaved.

    python3 Benchmarks/ab.py RUNS BASELINE OTHER... [--only clients,geo]

Each round runs every binary once on a workload, one after the other, pinned to one core, as the
benchmark runs it (`--jobs 1 --quiet --format json --formats assert`, report to /dev/null); the
median of RUNS rounds is printed per binary with the baseline's median divided by it (above 1:
faster than the baseline). Taking turns keeps a shared host's drift out of the ratios, which
separate runs of workloads.py do not. The data is what `python3 Benchmarks/workloads.py
--generate-only` writes to $TMPDIR/assay-workloads.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", type=int)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--only", default="clients,geo,tree,events,numeric,config")
    arguments = parser.parse_args()
    folder = os.path.join(tempfile.gettempdir(), "assay-workloads")
    pin = ["taskset", "-c", "1"] if subprocess.run(["which", "taskset"], capture_output=True).returncode == 0 else []
    binaries = [os.path.abspath(binary) for binary in arguments.binaries]
    for workload in arguments.only.split(","):
        data = os.path.join(folder, f"{workload}-50000.ndjson")
        schema = os.path.join(folder, f"{workload}.schema.json")
        if not os.path.exists(data):
            raise SystemExit(f"{data} is missing: python3 Benchmarks/workloads.py --generate-only")
        times = {binary: [] for binary in binaries}
        for _ in range(arguments.runs):
            for binary in binaries:
                start = time.perf_counter()
                subprocess.run(pin + [binary, "validate", "--jobs", "1", "--quiet", "--format", "json",
                                      "--formats", "assert", "--schema", schema, data],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[binary].append(time.perf_counter() - start)
        baseline = statistics.median(times[binaries[0]])
        cells = [f"{statistics.median(times[b]):.4f} s ({baseline / statistics.median(times[b]):.2f}×)"
                 for b in binaries]
        print(f"{workload:8s} " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
