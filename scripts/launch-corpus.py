#!/usr/bin/env python3
"""The `launch` mode over the SASS corpus with default parameters (issue #41, docs/launch.md):
per listing whether it is bounded (`details.launch` present) and the wall time of the
release CLI; prints the table's summary.

    cargo build --release -p warpbound-cli
    python3 scripts/launch-corpus.py [extra CLI args...]
"""
import glob, json, os, subprocess, sys, time

ROOT = os.path.join(os.path.dirname(__file__), "..")
CLI = os.path.join(ROOT, "target/release/warpbound")
CORPUS = os.path.join(ROOT, "../shared/corpus")
DIRS = ["sass", "sass-modern/sm_61", "sass-modern/sm_70", "sass-modern/sm_75",
        "sass-modern/sm_86", "sass-modern/sm_90"]

rows = []
for d in DIRS:
    for path in sorted(glob.glob(os.path.join(CORPUS, d, "*.sass"))):
        t = time.perf_counter()
        out = subprocess.run([CLI, "analyze", path, "--dialect", "sass", "--mode", "launch",
                              *sys.argv[1:]], capture_output=True)
        dt = time.perf_counter() - t
        try:
            rep = json.loads(out.stdout)
        except ValueError:
            rep = {}
        launch = (rep.get("details") or {}).get("launch")
        why = ""
        if not launch:
            errs = [x["message"] for x in rep.get("diagnostics", []) if x.get("severity") == "error"]
            why = (errs[-1] if errs else out.stderr.decode()[:80])[:90]
        sim = rep.get("simulation") or {}
        rows.append((d, os.path.basename(path), launch is not None, dt,
                     sim.get("holds"), why))

bounded = sum(r[2] for r in rows)
times = sorted(r[3] for r in rows)
print(f"bounded {bounded}/{len(rows)} = {100 * bounded / len(rows):.1f} %")
print(f"time per listing: median {times[len(times) // 2]:.3f} s, max {times[-1]:.3f} s, "
      f"over 1 s: {sum(t >= 1.0 for t in times)}")
runs = [r for r in rows if r[4] is not None]
if runs:
    print(f"simulated launches (simulation.holds present): {len(runs)}, within the bound: "
          f"{sum(r[4] for r in runs)}")
for d in DIRS:
    of = [r for r in rows if r[0] == d]
    print(f"  {d}: {sum(r[2] for r in of)}/{len(of)} bounded, max {max((r[3] for r in of), default=0):.3f} s")
for r in rows:
    if not r[2] or r[3] >= 1.0:
        print(f"  {r[0]}/{r[1]}: {'bounded' if r[2] else 'not bounded'} in {r[3]:.3f} s {r[5]}")
