#!/usr/bin/python3
"""kessel.dask against the plain CLI on this machine's cores (issue 26, docs/scale-out.md).

    /usr/bin/python3 bench/dask_scale_bench.py [--data ../shared/data/csds/val.jsonl] [--dialogues 20000]
        [--model M] [--shard-lines 1000] [--json out.json]

The input is --data repeated under new ids to at least --dialogues dialogues (ids must be unique).
In one run it times: `kessel summarize` with --threads 1 and 2; kessel.dask.summarize on a
LocalCluster of 1 and of 2 single-threaded worker processes (a fresh output directory each, nothing
reused); the same 1-worker run at a small shard size, whose extra tasks give the per-task overhead;
and numpy's sgemm on 1 and 2 threads, which says how far this machine's two vCPUs scale at all.
Prints each time and the ratios (2 workers / 1 worker, Dask / CLI on the same cores), and the shard
size that keeps the per-task overhead under 5% of a shard's work. KESSEL_CLI picks the binary
(default build/kessel); the kessel module is the one on PYTHONPATH (default build/python).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = os.environ.get("KESSEL_CLI", str(ROOT / "build" / "kessel"))
sys.path.insert(0, os.environ.get("KESSEL_PYTHONPATH", str(ROOT / "build" / "python")))


def repeated_input(data: Path, n: int, out: Path) -> int:
    lines = [l for l in data.read_text(encoding="utf-8").splitlines() if l.strip()]
    if not lines:
        sys.exit(f"dask_scale_bench: {data} has no records")
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        while written < n:
            for line in lines:
                record = json.loads(line)
                # every format: CSDS and kessel records keep an "id", TweetSumm a conversation_id
                key = "conversation_id" if "conversation_id" in record else "id"
                record[key] = f"r{written:07d}"
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1
    return written


def time_cli(data: Path, threads: int, model) -> float:
    cmd = [CLI, "summarize", "--input", str(data), "--output", os.devnull, "--quiet", "--threads", str(threads)]
    if model:
        cmd += ["--model", model]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - start


def time_dask(data: Path, workers: int, shard_lines: int, model, work: Path) -> float:
    import distributed
    import kessel.dask
    out = work / f"dask-{workers}-{shard_lines}"
    shutil.rmtree(out, ignore_errors=True)
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        # Workers warm (the module imported, the model loaded) before the clock starts, as on a
        # cluster that serves many jobs; the first-load cost is printed apart.
        warm = time.perf_counter()
        client.run(lambda: __import__("kessel.dask"))
        warm = time.perf_counter() - warm
        start = time.perf_counter()
        m = kessel.dask.summarize(data, out, model=model, client=client, shard_lines=shard_lines, progress=False)
        took = time.perf_counter() - start
    assert m["totals"]["reused_shards"] == 0
    shutil.rmtree(out, ignore_errors=True)
    print(f"  dask {workers} worker(s), {len(m['shards'])} shards of {shard_lines}: {took:.2f} s "
          f"(workers' import {warm:.2f} s, not counted)", flush=True)
    return took


def sgemm_gflops(threads: int) -> float:
    code = ("import numpy as np, time; n=1024; a=np.random.rand(n,n).astype(np.float32); b=a.copy(); a@b;"
            "t=time.perf_counter(); r=20\nfor _ in range(r): a@b\n"
            "print(2*n**3*r/(time.perf_counter()-t)/1e9)")
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    return float(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                                text=True).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "csds" / "val.jsonl"))
    ap.add_argument("--dialogues", type=int, default=20000)
    ap.add_argument("--model", default=None)
    ap.add_argument("--shard-lines", type=int, default=1000)
    ap.add_argument("--small-shard-lines", type=int, default=50)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if not Path(args.data).is_file():
        sys.exit(f"dask_scale_bench: --data {args.data} does not exist (CSDS val: ../shared/data/csds/val.jsonl)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        data = work / "input.jsonl"
        n = repeated_input(Path(args.data), args.dialogues, data)
        print(f"input: {args.data} repeated to {n} dialogues ({data.stat().st_size / 2**20:.1f} MiB), "
              f"model {args.model or '(none: centrality ranker)'}", flush=True)
        r = {"dialogues": n, "model": args.model, "shard_lines": args.shard_lines,
             "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")}
        r["sgemm_gflops_1"], r["sgemm_gflops_2"] = sgemm_gflops(1), sgemm_gflops(2)
        print(f"  numpy sgemm 1024: {r['sgemm_gflops_1']:.0f} GFLOP/s on 1 thread, "
              f"{r['sgemm_gflops_2']:.0f} on 2", flush=True)
        for t in (1, 2):
            r[f"cli_{t}"] = time_cli(data, t, args.model)
            print(f"  cli --threads {t}: {r[f'cli_{t}']:.2f} s", flush=True)
        for w in (1, 2):
            r[f"dask_{w}"] = time_dask(data, w, args.shard_lines, args.model, work)
        r["dask_1_small"] = time_dask(data, 1, args.small_shard_lines, args.model, work)
    tasks_big = -(-n // args.shard_lines)
    tasks_small = -(-n // args.small_shard_lines)
    per_task = max(0.0, (r["dask_1_small"] - r["dask_1"]) / (tasks_small - tasks_big))
    per_dialogue = r["cli_1"] / n
    r["per_task_overhead_s"] = per_task
    r["per_dialogue_s"] = per_dialogue
    r["shard_lines_for_5pct"] = int(per_task / (0.05 * per_dialogue)) + 1
    r["speedup_2_workers"] = r["dask_1"] / r["dask_2"]
    r["sgemm_scaling"] = r["sgemm_gflops_2"] / r["sgemm_gflops_1"]
    r["cli_scaling"] = r["cli_1"] / r["cli_2"]
    r["dask_overhead_1"] = r["dask_1"] / r["cli_1"] - 1
    r["dask_overhead_2"] = r["dask_2"] / r["cli_2"] - 1
    print(f"\nthroughput (dialogues/s): cli 1 thread {n / r['cli_1']:.0f}, 2 threads {n / r['cli_2']:.0f}; "
          f"dask 1 worker {n / r['dask_1']:.0f}, 2 workers {n / r['dask_2']:.0f}")
    print(f"2 workers / 1 worker: {r['speedup_2_workers']:.2f}x (cli 2/1 threads {r['cli_scaling']:.2f}x, "
          f"sgemm 2/1 threads {r['sgemm_scaling']:.2f}x)")
    print(f"dask overhead vs the cli on the same cores: {100 * r['dask_overhead_1']:+.1f}% (1), "
          f"{100 * r['dask_overhead_2']:+.1f}% (2)")
    print(f"per-task overhead {1000 * per_task:.1f} ms; a dialogue {1000 * per_dialogue:.2f} ms; "
          f"shards of >= {r['shard_lines_for_5pct']} lines keep the overhead under 5%")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
