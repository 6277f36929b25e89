#!/usr/bin/python3
"""`kessel serve` against the in-process summarizer (`kessel.Summarizer`), same dialogues, same run.

    PYTHONPATH=build/python /usr/bin/python3 bench/serve_bench.py [--data FILE] [--model M]
        [--clients 1,4] [--limit N]

Each dialogue of --data (default: the bundled samples, both languages) is posted on its own as one
JSON object to POST /summarize on a fresh `kessel serve --port 0`, first by one client, then by
several at once (--clients). The baseline is kessel.Summarizer(...).summarize(dialogue) in this
process: the same scoring and decoding without HTTP or JSON. Reports per-request latency (p50, p95),
throughput, and the server's overhead per dialogue (p50 request minus p50 in-process). Progress goes to
stderr, the table to stdout.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = os.environ.get("KESSEL_CLI", str(ROOT / "build" / "kessel"))


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def load(paths, limit):
    dialogues = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            dialogues += [json.loads(line) for line in f if line.strip()]
    return dialogues[:limit] if limit else dialogues


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", action="append", help="JSONL dialogues (repeatable)")
    ap.add_argument("--model", help="a trained EACA model for both sides")
    ap.add_argument("--clients", default="1,4", help="concurrent clients, comma-separated")
    ap.add_argument("--limit", type=int, default=0, help="use the first N dialogues")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the dialogues per measurement")
    args = ap.parse_args()
    import kessel

    paths = args.data or [ROOT / "data" / "samples" / "dialogues_zh.jsonl", ROOT / "data" / "samples" / "dialogues_en.jsonl"]
    dialogues = load(paths, args.limit)
    bodies = [json.dumps(d, ensure_ascii=False).encode() for d in dialogues] * args.repeat
    extra = ["--model", args.model] if args.model else []

    summarizer = kessel.Summarizer(model=args.model) if args.model else kessel.Summarizer()
    local = []
    for d in dialogues * args.repeat:
        t0 = time.perf_counter()
        summarizer.summarize(d)
        local.append(1000 * (time.perf_counter() - t0))
    print(f"in-process: {len(local)} calls", file=sys.stderr)

    server = subprocess.Popen([CLI, "serve", "--port", "0", *extra], stderr=subprocess.PIPE, text=True)
    try:
        port = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stderr.readline()).group(1)
        url = f"http://127.0.0.1:{port}/summarize"

        def post(body):
            t0 = time.perf_counter()
            with urllib.request.urlopen(urllib.request.Request(url, data=body, method="POST"), timeout=60) as r:
                r.read()
                assert r.status == 200
            return 1000 * (time.perf_counter() - t0)

        for body in bodies[: len(dialogues)]:  # warm-up
            post(body)
        rows = [("in-process kessel.Summarizer", 1, quantile(local, 0.5), quantile(local, 0.95), 1000 * len(local) / sum(local))]
        for clients in [int(c) for c in args.clients.split(",")]:
            t0 = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(max_workers=clients) as pool:
                times = list(pool.map(post, bodies))
            wall = time.perf_counter() - t0
            rows.append((f"kessel serve, POST /summarize", clients, quantile(times, 0.5), quantile(times, 0.95), len(times) / wall))
            print(f"serve: {clients} client(s), {len(times)} requests", file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=10)

    print(f"{len(dialogues)} dialogues x {args.repeat}, model: {args.model or 'none (attention centrality)'}")
    print(f"{'path':<34} {'clients':>7} {'p50 ms':>8} {'p95 ms':>8} {'dlg/s':>8}")
    for name, clients, p50, p95, rate in rows:
        print(f"{name:<34} {clients:>7} {p50:>8.3f} {p95:>8.3f} {rate:>8.0f}")
    print(f"server overhead per dialogue (p50, one client): {rows[1][2] - rows[0][2]:.3f} ms")


if __name__ == "__main__":
    main()
