#!/usr/bin/python3
"""kessel.torch.attention forward + backward against PyTorch eager forward + backward, same process,
same threads (torch.set_num_threads and OpenBLAS's own thread count, as bench/attention_torch.py;
kessel.torch uses torch.get_num_threads()).

    PYTHONPATH=build/python /usr/bin/python3 bench/torch_op_bench.py [--lengths 4096] [--threads 1,2]
        [--repeats 5] [--json]

Shapes: B=1, H=8, D=64 (as bench/attention_torch.py). Each case is timed as out = f(q, k, v);
out.backward(dout), the leaves' .grad reset before each call, medians of interleaved repeats (load
from other processes hits both engines alike). Cases, each the same computation on both sides (checked
before timing: outputs and gradients of the two agree):
  softmax        softmax(Q K^T / sqrt(D)) V
  causal         the same with a causal mask (eager: masked_fill of -inf over the full matrix;
                 kessel skips the hidden tiles)
  fuzzy m=2      w = (d2 + eps)^-1 normalized over the keys (eager: reciprocal and sum, the cheapest
                 eager form for m = 2), d2 = |q|^2 + |k|^2 - 2 q.k
  fuzzy learned  m a tensor with requires_grad (m = 1.5): eager softmax(-ln(d2 + eps) / (m - 1)) V,
                 the gradient of m included on both sides
Also timed: the same fused kernels through the NumPy API (kessel.attention + kessel.attention_backward),
which shows what the torch layer itself costs. Wall time and process CPU time are both reported, with
the load average around each case: on a shared machine the CPU time is the steadier figure. Progress
goes to stderr, the table to stdout.
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

import kessel
import kessel.torch as kt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_torch import openblas_set_threads  # noqa: E402 (torch's matmuls run in OpenBLAS)

B, H, D = 1, 8, 64
EPS = 1e-12


def log(msg):
    print(f"[torch_op_bench] {msg}", file=sys.stderr, flush=True)


def paired_medians(fns, repeats):
    """Median wall ms and median process CPU ms of each fn (already warmed up), timed in interleaved
    rounds (as bench/attention_torch.py), so that load from other processes hits every contender
    alike. CPU time (all threads of this process) leaves out the time the process waited for a core:
    on a loaded machine it is the steadier of the two."""
    wall = [[] for _ in fns]
    cpu = [[] for _ in fns]
    for _ in range(repeats):
        for fn, w, c in zip(fns, wall, cpu):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            w.append(1e3 * (time.perf_counter() - t0))
            c.append(1e3 * (time.process_time() - c0))
    return [float(np.median(w)) for w in wall], [float(np.median(c)) for c in cpu]


def eager_softmax(q, k, v, causal=False):
    logits = q @ k.transpose(-1, -2) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        L = logits.shape[-1]
        logits = logits.masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1), -math.inf)
    return torch.softmax(logits, -1) @ v


def eager_sq_distances(q, k):
    qn = (q * q).sum(-1, keepdim=True)
    kn = (k * k).sum(-1, keepdim=True).transpose(-1, -2)
    return (qn + kn - 2.0 * (q @ k.transpose(-1, -2))).clamp_min(0.0)


def eager_fuzzy_m2(q, k, v):
    w = 1.0 / (eager_sq_distances(q, k) + EPS)
    return (w / w.sum(-1, keepdim=True)) @ v


def eager_fuzzy(q, k, v, m):
    return torch.softmax(-torch.log(eager_sq_distances(q, k) + EPS) / (m - 1.0), -1) @ v


def cases():
    """name -> (eager fn(q, k, v, extra), kessel spec fn(extra), extra leaves factory)."""
    return {
        "softmax": (lambda q, k, v, x: eager_softmax(q, k, v), lambda x: {}, lambda: {}),
        "causal": (lambda q, k, v, x: eager_softmax(q, k, v, causal=True),
                   lambda x: {"causal": True}, lambda: {}),
        "fuzzy m=2": (lambda q, k, v, x: eager_fuzzy_m2(q, k, v),
                      lambda x: {"normalizer": "fuzzy", "m": 2.0}, lambda: {}),
        "fuzzy learned m": (lambda q, k, v, x: eager_fuzzy(q, k, v, x["m"]),
                            lambda x: {"normalizer": "fuzzy", "m": x["m"]},
                            lambda: {"m": torch.tensor(1.5, requires_grad=True)}),
    }


def make_inputs(L, seed=0):
    g = torch.Generator().manual_seed(seed)
    s = D ** -0.25
    q = (torch.randn(B, H, L, D, generator=g) * s).requires_grad_()
    k = (torch.randn(B, H, L, D, generator=g) * s).requires_grad_()
    v = torch.randn(B, H, L, D, generator=g).requires_grad_()
    dout = torch.randn(B, H, L, D, generator=g)
    return q, k, v, dout


def step(fn, leaves, dout):
    """One forward + backward; returns the output and the gradients."""
    for t in leaves:
        t.grad = None
    out = fn()
    out.backward(dout)
    return out, [t.grad for t in leaves]


def rel_err(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max().clamp_min(1e-30))


def bench_case(name, L, threads, repeats):
    eager_fn, spec_fn, extra_fn = cases()[name]
    q, k, v, dout = make_inputs(L)
    extra_e, extra_k = extra_fn(), extra_fn()
    leaves_e = [q, k, v] + list(extra_e.values())
    leaves_k = [q, k, v] + list(extra_k.values())
    spec = spec_fn(extra_k)
    run_eager = lambda: step(lambda: eager_fn(q, k, v, extra_e), leaves_e, dout)  # noqa: E731
    run_kessel = lambda: step(lambda: kt.attention(q, k, v, **spec), leaves_k, dout)  # noqa: E731

    # The same computation: outputs and every gradient agree (float32 eager vs float32 fused). These
    # first calls are also the warm-up (allocations, thread pools).
    out_e, g_e = run_eager()
    out_k, g_k = run_kessel()
    check = {"out": rel_err(out_k, out_e)}
    for label, a, b in zip(["dq", "dk", "dv", "dm"], g_k, g_e):
        check[label] = rel_err(a, b)
    del out_e, g_e, out_k, g_k
    assert max(check.values()) < 1e-3, (name, check)

    # The fused kernels through the NumPy API, for the torch layer's own cost.
    qn, kn, vn, dn = (t.detach().numpy() for t in (q, k, v, dout))
    np_spec = {key: (float(val) if isinstance(val, torch.Tensor) else val)
               for key, val in spec.items()}

    def run_numpy():
        out, lse = kessel.attention(qn, kn, vn, return_lse=True, threads=threads, **np_spec)
        kessel.attention_backward(qn, kn, vn, dn, out=out, lse=lse, threads=threads, **np_spec)

    run_numpy()  # its warm-up
    load_before = os.getloadavg()[0]
    (ms_e, ms_k, ms_np), (cpu_e, cpu_k, _) = paired_medians([run_eager, run_kessel, run_numpy],
                                                            repeats)
    return {"case": name, "L": L, "threads": threads, "eager_ms": ms_e, "kessel_torch_ms": ms_k,
            "kessel_numpy_ms": ms_np, "speedup": ms_e / ms_k, "layer_overhead": ms_k / ms_np,
            "eager_cpu_ms": cpu_e, "kessel_torch_cpu_ms": cpu_k, "cpu_speedup": cpu_e / cpu_k,
            "load_average": [load_before, os.getloadavg()[0]], "check": check}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", default="4096")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--cases", default=",".join(cases()))
    ap.add_argument("--repeats", type=int, default=5, help="interleaved rounds per case")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = []
    for threads in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads(threads)
        # Debian's torch does its matmuls in OpenBLAS, whose own thread pool set_num_threads does
        # not reach: without this, "1 thread" eager ran its matmuls on 2.
        if not openblas_set_threads(threads):
            log("warning: OpenBLAS not found in this process; its thread count is not set")
        for L in [int(x) for x in args.lengths.split(",")]:
            for name in args.cases.split(","):
                log(f"threads={threads} L={L} {name} ...")
                r = bench_case(name, L, threads, args.repeats)
                log(f"  eager {r['eager_ms']:.0f} ms, kessel.torch {r['kessel_torch_ms']:.0f} ms "
                    f"({r['speedup']:.2f}x; CPU time {r['cpu_speedup']:.2f}x), NumPy API "
                    f"{r['kessel_numpy_ms']:.0f} ms, load average {r['load_average']}")
                results.append(r)
    if args.json:
        print(json.dumps({"config": {"B": B, "H": H, "D": D}, "results": results}, indent=2))
        return
    print(f"B={B} H={H} D={D}, forward + backward; speedup = eager ms / kessel.torch ms (wall, and "
          f"process CPU time); layer = kessel.torch ms / NumPy API ms")
    print(f"{'case':<16} {'L':>5} {'thr':>3} {'eager ms':>9} {'kessel.torch':>12} {'speedup':>8} "
          f"{'CPU-time':>8} {'NumPy API':>9} {'layer':>6} {'load':>10}  max rel diff")
    for r in results:
        load = "-".join(f"{x:.1f}" for x in r["load_average"])
        print(f"{r['case']:<16} {r['L']:>5} {r['threads']:>3} {r['eager_ms']:>9.0f} "
              f"{r['kessel_torch_ms']:>12.0f} {r['speedup']:>7.2f}x {r['cpu_speedup']:>7.2f}x "
              f"{r['kessel_numpy_ms']:>9.0f} {r['layer_overhead']:>5.2f}x {load:>10}  "
              f"{max(r['check'].values()):.1e}")


if __name__ == "__main__":
    main()
