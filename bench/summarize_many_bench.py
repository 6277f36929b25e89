"""Throughput of kessel.Summarizer.summarize_many: 1 thread against N threads, same process.

    PYTHONPATH=build/python /usr/bin/python3 bench/summarize_many_bench.py \
        --data /work/shared/data/csds/val.jsonl [--model M.safetensors] [--threads 2] [--repeats 5]

Each round times summarize_many(threads=1) and summarize_many(threads=N) on the whole file back to
back (the order alternates between rounds); the outputs are checked to be identical first. Prints
dialogues/s (wall), the median ratio, and the CPU time of the process per dialogue.
"""
import argparse
import json
import os
import statistics
import sys
import time

import kessel


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w0, time.process_time() - c0


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
    for r in range(a.repeats):
        order = (1, a.threads) if r % 2 == 0 else (a.threads, 1)
        for t in order:
            rows[t].append(timed(lambda: s.summarize_many(lines, threads=t)))
    n = len(lines)
    med = {t: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for t, v in rows.items()}
    ratios = [w1 / wn for (w1, _), (wn, _) in zip(rows[1], rows[a.threads])]
    result = {
        "data": a.data, "dialogues": n, "scorer": s.scorer, "model": a.model, "repeats": a.repeats,
        "cpus": os.cpu_count(), "load_avg": os.getloadavg(),
        "rows": [{"threads": t, "wall_s": w, "cpu_s": c, "dialogues_per_s": n / w} for t, (w, c) in med.items()],
        "ratio_median_of_rounds": statistics.median(ratios), "ratio_of_medians": med[1][0] / med[a.threads][0],
        "ratios": ratios,
    }
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


if __name__ == "__main__":
    sys.exit(main())
