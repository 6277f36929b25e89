#!/usr/bin/python3
"""LayerNorm forward+backward, kessel vs PyTorch eager, measured in the same run (docs/nn.md).

    PYTHONPATH=build/python /usr/bin/python3 bench/nn_bench.py [--n 8192] [--c 768] [--reps 20]

Both sides get the same float32 inputs and the same thread count (torch.get_num_threads(), also
passed to kessel). torch's side is F.layer_norm + autograd backward of (out * dout).sum() w.r.t. x,
weight, bias -- i.e. the same three gradients kessel computes. Reports the median of `reps` timed
iterations after warm-up, and the ratio torch/kessel (> 1: kessel faster). Timings on a shared machine
are noisy; only the ratio from one run means anything.
"""
import argparse
import statistics
import time

import numpy as np
import torch
import torch.nn.functional as F

import kessel


def median_seconds(fn, reps, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--c", type=int, default=768)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    n, c = args.n, args.c
    threads = torch.get_num_threads()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, c)).astype(np.float32)
    w = (1 + 0.1 * rng.standard_normal(c)).astype(np.float32)
    b = (0.1 * rng.standard_normal(c)).astype(np.float32)
    dout = rng.standard_normal((n, c)).astype(np.float32)

    def run_kessel():
        out, mean, rstd = kessel.layer_norm(x, w, b, threads=threads)
        return kessel.layer_norm_backward(dout, x, w, mean, rstd, threads=threads)

    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    tdout = torch.tensor(dout)

    def run_torch():
        tx.grad = tw.grad = tb.grad = None
        out = F.layer_norm(tx, (c,), tw, tb, eps=1e-5)
        out.backward(tdout)

    # Same answer first: a benchmark of a wrong kernel is worthless.
    g = run_kessel()
    run_torch()
    maxdiff = max(float(np.abs(g["dx"] - tx.grad.numpy()).max()),
                  float(np.abs(g["dweight"] - tw.grad.numpy()).max()) / max(1.0, float(tw.grad.abs().max())))
    t_kessel = median_seconds(run_kessel, args.reps)
    t_torch = median_seconds(run_torch, args.reps)
    gbytes = 4.0 * n * c * 5 / 1e9  # x read twice, dout once, out and dx written (lower bound)
    print(f"LayerNorm fwd+bwd N={n} C={c} threads={threads} (median of {args.reps})")
    print(f"  kessel      {t_kessel * 1e3:8.2f} ms   ({gbytes / t_kessel:5.1f} GB/s lower bound)")
    print(f"  torch eager {t_torch * 1e3:8.2f} ms   (torch {torch.__version__})")
    print(f"  ratio torch/kessel = {t_torch / t_kessel:.2f}   (grad maxdiff {maxdiff:.1e})")


if __name__ == "__main__":
    main()
