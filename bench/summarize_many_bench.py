"""Throughput of kessel.Summarizer.summarize_many: 1 thread against N threads, same process.

    PYTHONPATH=build/python /usr/bin/python3 bench/summarize_many_bench.py \
        --data /work/shared/data/csds/val.jsonl [--model M.safetensors] [--threads 2] [--repeats 5]

Each round times summarize_many(threads=1) and summarize_many(threads=N) on the whole file back to
back (the order alternates between rounds); the outputs are checked to be identical first. Prints
dialogues/s (wall), the median ratio, and the process's CPU time. Each round also measures what the
machine gives N independent busy-loop processes against one (N = perfect), the ceiling any
N-thread ratio meets at that moment. On a loaded machine wall ratios
measure the scheduler; two CPU-time figures do not: the CPU time of N threads against 1 (the work
added by threading) and the serial part, the CPU time of what summarize_many does holding the GIL
(encoding the inputs, json.loads of the records), timed alone, whose share f of the 1-thread CPU
time bounds the N-thread speedup on N free cores at 1 / (f + (1 - f) / N) (Amdahl).
"""
import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time

import kessel


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w0, time.process_time() - c0


def busy(n):
    x = 0
    for i in range(n):
        x += i * i
    return x


def machine_scaling(threads, n=3_000_000):
    """What the machine gives `threads` independent CPU-bound processes right now: threads x the
    wall time of one busy loop over the wall time of `threads` of them at once (threads = perfect)."""
    with multiprocessing.Pool(threads) as pool:
        pool.map(busy, [1000] * threads)  # start the workers
        w0 = time.perf_counter()
        pool.map(busy, [n])
        one = time.perf_counter() - w0
        w0 = time.perf_counter()
        pool.map(busy, [n] * threads)
        many = time.perf_counter() - w0
    return threads * one / many


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--model")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with open(a.data, encoding="utf-8") as f:
        lines = [l for l in f if l.strip()]
    s = kessel.Summarizer(model=a.model) if a.model else kessel.Summarizer()
    one = s.summarize_many(lines, threads=1)
    many = s.summarize_many(lines, threads=a.threads)
    assert one == many, "summarize_many differs between 1 and N threads"
    assert one == [s.summarize(l) for l in lines[:20]] + one[20:], "summarize_many differs from summarize()"
    rows = {1: [], a.threads: []}
    machine = []
    for r in range(a.repeats):
        order = (1, a.threads) if r % 2 == 0 else (a.threads, 1)
        for t in order:
            rows[t].append(timed(lambda: s.summarize_many(lines, threads=t)))
        machine.append(machine_scaling(a.threads))
    n = len(lines)
    texts = [json.dumps(r, ensure_ascii=False) for r in one]  # the records' JSON text, as built in C++
    serial = []
    for _ in range(a.repeats):
        c0 = time.process_time()
        for l in lines:
            l.encode("utf-8", "surrogatepass")
        for t in texts:
            json.loads(t)
        serial.append(time.process_time() - c0)
    med = {t: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for t, v in rows.items()}
    ratios = [w1 / wn for (w1, _), (wn, _) in zip(rows[1], rows[a.threads])]
    result = {
        "data": a.data, "dialogues": n, "scorer": s.scorer, "model": a.model, "repeats": a.repeats,
        "cpus": os.cpu_count(), "load_avg": os.getloadavg(),
        "rows": [{"threads": t, "wall_s": w, "cpu_s": c, "dialogues_per_s": n / w} for t, (w, c) in med.items()],
        "ratio_median_of_rounds": statistics.median(ratios), "ratio_of_medians": med[1][0] / med[a.threads][0],
        "ratios": ratios,
    }
    serial_cpu = statistics.median(serial)
    f = serial_cpu / med[1][1]
    result.update({"machine_scaling": statistics.median(machine), "machine_scaling_rounds": machine,
                   "serial_cpu_s": serial_cpu, "serial_share": f, "cpu_ratio": med[a.threads][1] / med[1][1],
                   "amdahl_bound": 1 / (f + (1 - f) / a.threads)})
    if a.json:
        print(json.dumps(result))
        return
    print(f"summarize_many on {a.data}: {n} dialogues, scorer {s.scorer}{' (' + a.model + ')' if a.model else ''}, "
          f"median of {a.repeats}, load average {result['load_avg'][0]:.2f}")
    print(f"{'threads':>7} {'wall s':>8} {'dlg/s':>8} {'cpu s':>8}")
    for row in result["rows"]:
        print(f"{row['threads']:>7} {row['wall_s']:>8.3f} {row['dialogues_per_s']:>8.1f} {row['cpu_s']:>8.3f}")
    print(f"throughput ratio {a.threads} vs 1 thread: {result['ratio_of_medians']:.2f}x (ratio of medians), "
          f"per round {', '.join(f'{x:.2f}' for x in ratios)}")
    print(f"the machine now: {a.threads} busy-loop processes at once give {result['machine_scaling']:.2f}x the "
          f"throughput of one (median; rounds {', '.join(f'{x:.2f}' for x in machine)})")
    print(f"CPU time {a.threads} threads / 1 thread: {result['cpu_ratio']:.3f}; serial part (GIL held) "
          f"{1000 * serial_cpu:.1f} ms CPU = {100 * f:.1f}% of 1 thread's -> at most "
          f"{result['amdahl_bound']:.2f}x on {a.threads} free cores")


if __name__ == "__main__":
    sys.exit(main())
