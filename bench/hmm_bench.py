#!/usr/bin/env python3
"""kessel HMM vs pomegranate 0.14.8, measured in the same run.

Forward-backward (posterior state marginals) and Viterbi on a 50-state HMM with 10-dimensional
diagonal-Gaussian emissions, 200 sequences x 50 steps. pomegranate runs single-threaded (one
sequence per call, as its per-sequence API does; BLAS pinned to one thread); kessel runs with
threads=1 and threads=2. Prints median wall and CPU times and their ratios; --json for machine-readable output.

  PYTHONPATH=build-<you>/python /usr/bin/python3 bench/hmm_bench.py [--json] [--repeats 5]
"""
import argparse
import json
import os
import sys
import time

# Pin BLAS/OpenMP pools before numpy/pomegranate load so the baseline is single-threaded.
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import numpy as np  # noqa: E402

import kessel  # noqa: E402
from pomegranate import (HiddenMarkovModel, IndependentComponentsDistribution,  # noqa: E402
                         NormalDistribution)


def build(S, D, seed):
    rng = np.random.default_rng(seed)
    start = rng.uniform(0.1, 1.0, S)
    start /= start.sum()
    trans = rng.uniform(0.1, 1.0, (S, S))
    trans /= trans.sum(axis=1, keepdims=True)
    means = rng.normal(0.0, 2.0, (S, D))
    variances = rng.uniform(0.5, 2.0, (S, D))
    h = kessel.HMM.gaussian(start, trans, means, variances)
    dists = [IndependentComponentsDistribution(
        [NormalDistribution(float(means[s, d]), float(np.sqrt(variances[s, d]))) for d in range(D)])
        for s in range(S)]
    pm = HiddenMarkovModel.from_matrix(trans, dists, start)
    return h, pm


def median_time(fn, repeats):
    """Median wall seconds and median CPU seconds (process_time, all threads) of `repeats` calls."""
    fn()  # warm-up
    times, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return float(np.median(times)), float(np.median(cpu))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--states", type=int, default=50)
    ap.add_argument("--dim", type=int, default=10)
    ap.add_argument("--seqs", type=int, default=200)
    ap.add_argument("--length", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    h, pm = build(args.states, args.dim, seed=0)
    seqs = h.sample(args.seqs, args.length, 1)

    # Same answers first: a benchmark of two different computations would mean nothing.
    post_k = h.posterior(seqs[:5], threads=1)
    order = [int(s.name[1:]) for s in pm.states if s.distribution is not None]  # name-sorted
    post_err = max(np.abs(pk[:, order] - pm.predict_proba(x)).max()
                   for pk, x in zip(post_k, seqs[:5]))

    rows = []
    def add(task, impl, threads, timing):
        rows.append({"task": task, "impl": impl, "threads": threads, "seconds": timing[0],
                     "cpu_seconds": timing[1]})

    add("forward_backward", "pomegranate", 1,
        median_time(lambda: [pm.forward_backward(x) for x in seqs], args.repeats))
    for t in (1, 2):
        add("forward_backward", "kessel", t,
            median_time(lambda: h.posterior(seqs, threads=t), args.repeats))
    add("viterbi", "pomegranate", 1, median_time(lambda: [pm.viterbi(x) for x in seqs], args.repeats))
    for t in (1, 2):
        add("viterbi", "kessel", t, median_time(lambda: h.viterbi(seqs, threads=t), args.repeats))

    base = {r["task"]: r for r in rows if r["impl"] == "pomegranate"}
    for r in rows:
        r["speedup_vs_pomegranate"] = base[r["task"]]["seconds"] / r["seconds"]
        # CPU time survives a busy shared machine better than wall time (1-thread rows).
        r["cpu_speedup_vs_pomegranate"] = base[r["task"]]["cpu_seconds"] / r["cpu_seconds"]
    result = {"states": args.states, "dim": args.dim, "seqs": args.seqs, "length": args.length,
              "repeats": args.repeats, "max_posterior_diff_vs_pomegranate": post_err,
              "results": rows}
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return
    print(f"HMM S={args.states} D={args.dim} diagonal Gaussian, {args.seqs} seqs x {args.length} "
          f"steps, median of {args.repeats} (posterior max |diff| vs pomegranate {post_err:.1e})")
    print(f"{'task':<18}{'impl':<13}{'threads':>8}{'ms':>11}{'vs pomegranate':>17}{'cpu ms':>10}"
          f"{'cpu ratio':>11}")
    for r in rows:
        print(f"{r['task']:<18}{r['impl']:<13}{r['threads']:>8}{1e3 * r['seconds']:>11.2f}"
              f"{r['speedup_vs_pomegranate']:>16.1f}x{1e3 * r['cpu_seconds']:>10.2f}"
              f"{r['cpu_speedup_vs_pomegranate']:>10.1f}x")


if __name__ == "__main__":
    main()
