#!/usr/bin/python3
"""Gustafson–Kessel on wide data (few points, many features): this build against a baseline build.

N = 50 points in D = 50, 400, 2000 dimensions (two shifted Gaussian halves), C = 2, m = 2, tol = 0,
the same initial centres for both builds. Each build and size runs in its own subprocess with
OPENBLAS_NUM_THREADS and threads set to --threads; a run past --timeout seconds is reported as such.
Per-iteration time is (t(iters) − t(1)) / (iters − 1), so the one-off set-up (the data covariance) is
left out; "setup" is t(1) minus one iteration. Wall and CPU seconds are both reported: on a shared,
busy machine the CPU figure is the fairer one. Where both builds finish, the centres are compared
(with beta = --beta: at the default 1e15, wide data's null-space rounding noise decides the result
of either route, so a moderate cap makes the comparison about the method).

  /usr/bin/python3 bench/gk_wide_bench.py --build-dir build --baseline-build-dir <previous build>
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def data(n, d):
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, d))
    x[: n // 2] += 3.0
    return x


def worker(args):
    import numpy as np

    sys.path.insert(0, str(pathlib.Path(args.worker_python).resolve()))
    import kessel

    x = data(args.n, args.d)
    init = x[[0, args.n - 1]]
    times = {}
    for iters in (1, args.iters):
        start, start_cpu = time.perf_counter(), time.process_time()
        r = kessel.gk(x, 2, m=2.0, tol=0.0, max_iter=iters, init=init, beta=args.beta, threads=args.threads)
        times[iters] = (time.perf_counter() - start, time.process_time() - start_cpu)
    print(json.dumps({"times": {str(k): v for k, v in times.items()}, "centers": np.asarray(r["centers"]).tolist()}))


def run(python_dir, d, args):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(args.threads))
    cmd = [sys.executable, __file__, "--worker-python", python_dir, "--d", str(d), "--n", str(args.n),
           "--iters", str(args.iters), "--beta", str(args.beta), "--threads", str(args.threads)]
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def per_iteration(result, iters):
    t1, tk = result["times"]["1"], result["times"][str(iters)]
    return [(tk[i] - t1[i]) / (iters - 1) for i in (0, 1)], t1[0] - (tk[0] - t1[0]) / (iters - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--baseline-build-dir", required=False)
    ap.add_argument("--dims", default="50,400,2000")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--beta", type=float, default=1e6)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=150)
    ap.add_argument("--worker-python")
    ap.add_argument("--d", type=int)
    args = ap.parse_args()
    if args.worker_python:
        return worker(args)
    import numpy as np

    builds = [("this build", str(pathlib.Path(args.build_dir) / "python"))]
    if args.baseline_build_dir:
        builds.append(("baseline", str(pathlib.Path(args.baseline_build_dir) / "python")))
    print(f"N = {args.n}, C = 2, {args.iters} iterations, beta = {args.beta:g}, {args.threads} thread(s)")
    print("| D | build | s/iteration (wall) | s/iteration (CPU) | setup s | baseline/this (CPU) | max |Δ centre| |")
    print("|---|---|---|---|---|---|---|")
    for d in (int(v) for v in args.dims.split(",")):
        results = {name: run(path, d, args) for name, path in builds}
        ours = results["this build"]
        for name, _ in builds:
            r = results[name]
            if r is None:
                print(f"| {d} | {name} | > {args.timeout:g} s for {args.iters} iterations (timed out) | | | | |")
                continue
            (wall, cpu), setup = per_iteration(r, args.iters)
            ratio, gap = "", ""
            if name == "baseline" and ours is not None:
                ratio = f"{cpu / max(per_iteration(ours, args.iters)[0][1], 1e-9):.0f}×"
                gap = f"{np.abs(np.array(r['centers']) - np.array(ours['centers'])).max():.1e}"
            print(f"| {d} | {name} | {wall:.3f} | {cpu:.3f} | {setup:.2f} | {ratio} | {gap} |")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
