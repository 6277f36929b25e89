#!/usr/bin/python3
"""Fuzzy clustering benchmark: kessel vs the vectorized numpy FCM/GK of tests/python/fcm_numpy.py.

FCM: 200,000 x 16, c = 8, m = 2, 50 iterations (tol = 0), same initial centres for both.
GK:  20,000 x 8, c = 4, time per iteration.
Each configuration runs in its own subprocess so that OPENBLAS_NUM_THREADS (numpy's threads) is set
before numpy is imported; kessel gets threads=T and the same OPENBLAS_NUM_THREADS. Reports seconds
and the numpy/kessel ratio measured in the same run (target: >= 10x for FCM), in wall time and in CPU
time (the latter is the fairer figure for 1-thread runs on a shared, busy machine).

  /usr/bin/python3 bench/cluster_bench.py --build-dir build [--json] [--quick]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def worker(args):
    # OPENBLAS_NUM_THREADS was set by the parent before this interpreter started.
    import numpy as np

    sys.path.insert(0, str(ROOT / "tests" / "python"))
    sys.path.insert(0, str(pathlib.Path(args.build_dir).resolve() / "python"))
    import fcm_numpy
    import kessel

    rng = np.random.default_rng(0)
    if args.problem == "fcm":
        n, d, c, iters = (20_000, 16, 8, 10) if args.quick else (200_000, 16, 8, 50)
        means = rng.normal(scale=4.0, size=(c, d))
        x = means[rng.integers(0, c, size=n)] + rng.normal(size=(n, d))
    else:
        n, d, c, iters = (4_000, 8, 4, 5) if args.quick else (20_000, 8, 4, 20)
        means = rng.normal(scale=4.0, size=(c, d))
        scales = rng.uniform(0.2, 2.0, size=(c, d))
        labels = rng.integers(0, c, size=n)
        x = means[labels] + rng.normal(size=(n, d)) * scales[labels]
    init = x[rng.choice(n, size=c, replace=False)]
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        if args.impl == "kessel":
            if args.problem == "fcm":  # centres and memberships only: no validity indices
                result = kessel.fcm(x, c, m=2.0, tol=0.0, max_iter=iters, init=init,
                                    threads=args.threads, precision=args.precision, indices=False)
            else:
                result = kessel.gk(x, c, m=2.0, tol=0.0, max_iter=iters, init=init,
                                   threads=args.threads)
        elif args.problem == "fcm":
            result = fcm_numpy.fcm(x, c, m=2.0, tol=0.0, max_iter=iters, init_centres=init,
                                   distance=fcm_numpy.squared_distances_gemm)
        else:
            result = fcm_numpy.gk(x, c, m=2.0, tol=0.0, max_iter=iters, init_centres=init)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    # CPU seconds (all threads) survive a busy machine better than wall time for 1-thread runs.
    print(json.dumps(dict(seconds=best, cpu_seconds=best_cpu, per_iter_ms=1e3 * best / iters, n=n, d=d, c=c, iters=iters,
                          centers=np.asarray(result["centers"]).tolist(),
                          objective=float(result["objective_history"][-1]))))


def run(args, impl, problem, threads, precision="float64"):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    cmd = [sys.executable, __file__, "--worker", "--impl", impl, "--problem", problem, "--threads",
           str(threads), "--build-dir", args.build_dir, "--repeat", str(args.repeat),
           "--precision", precision]
    if args.quick:
        cmd.append("--quick")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--build-dir", default=str(ROOT / "build"))
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    p.add_argument("--repeat", type=int, default=2, help="best of this many runs")
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    p.add_argument("--json", action="store_true")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--impl", help=argparse.SUPPRESS)
    p.add_argument("--problem", help=argparse.SUPPRESS)
    p.add_argument("--precision", default="float64", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        args.threads = int(args.threads)
        return worker(args)

    import numpy as np

    rows = []
    # fcm-f32: kessel.fcm(precision="float32"), against the same float64 numpy run.
    for problem in ("fcm", "gk"):
        for threads in (int(t) for t in args.threads.split(",")):
            print(f"[{problem}] threads {threads} ...", file=sys.stderr, flush=True)
            base = run(args, "numpy", problem, threads)
            variants = [("float64", problem)]
            if problem == "fcm":
                variants.append(("float32", "fcm-f32"))
            for precision, name in variants:
                ours = run(args, "kessel", problem, threads, precision)
                diff = float(np.abs(np.array(ours["centers"]) - np.array(base["centers"])).max())
                rows.append(dict(problem=name, threads=threads, n=ours["n"], d=ours["d"], c=ours["c"],
                                 iters=ours["iters"], kessel_s=ours["seconds"],
                                 numpy_s=base["seconds"], kessel_ms_per_iter=ours["per_iter_ms"],
                                 numpy_ms_per_iter=base["per_iter_ms"],
                                 speedup=base["seconds"] / ours["seconds"],
                                 cpu_speedup=base["cpu_seconds"] / ours["cpu_seconds"],
                                 max_centre_diff=diff))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'problem':8} {'N x D, c':>16} {'iters':>5} {'thr':>3} {'kessel ms/it':>12} "
          f"{'numpy ms/it':>11} {'speedup':>8} {'cpu ratio':>9} {'max |dV|':>9}")
    for r in rows:
        shape = f"{r['n']}x{r['d']}, {r['c']}"
        print(f"{r['problem']:8} {shape:>16} {r['iters']:>5} {r['threads']:>3} "
              f"{r['kessel_ms_per_iter']:>12.2f} {r['numpy_ms_per_iter']:>11.2f} "
              f"{r['speedup']:>7.1f}x {r['cpu_speedup']:>8.1f}x {r['max_centre_diff']:>9.1e}")


if __name__ == "__main__":
    main()
