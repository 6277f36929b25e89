#!/usr/bin/env python3
"""kessel.segment vs jieba.cut(s, HMM=True) (Debian's python3-jieba 0.42.1), in the same process.

Every utterance of CSDS val, one call per utterance as a caller would make it (kessel's time includes
the Python call and the str conversions; bench/segment_bench.cc times the C++ alone). Prints the
median over --repeats passes of wall and CPU time per dialogue, the ratio, the load times (kessel's
first call loads dict.txt and the HMM tables; jieba's initialize() reads its marshal cache in /tmp
when one exists, else builds it from dict.txt), and whether the words agree.

  PYTHONPATH=build/python /usr/bin/python3 bench/segment_vs_jieba.py [--data ../shared/data] [--repeats 5]
"""
import argparse
import json
import logging
import os
import statistics
import time
from pathlib import Path


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.environ.get("KESSEL_DATA", str(Path(__file__).resolve().parents[1] / ".." / "shared" / "data")))
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    path = Path(args.data) / "csds" / "val.jsonl"
    dialogues = [[t["utterance"] for t in json.loads(line)["Dialogue"]]
                 for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    n_utt = sum(map(len, dialogues))

    load_k = timed(lambda: __import__("kessel").segment(""))
    import kessel
    import jieba
    jieba.setLogLevel(logging.WARNING)
    load_j = timed(jieba.initialize)

    def run_kessel():
        for d in dialogues:
            for u in d:
                kessel.segment(u)

    def run_jieba():
        for d in dialogues:
            for u in d:
                list(jieba.cut(u, HMM=True))

    times = {"kessel": [], "jieba": []}
    for _ in range(args.repeats):  # interleaved, so that load on the machine hits both alike
        times["kessel"].append(timed(run_kessel))
        times["jieba"].append(timed(run_jieba))
    same = sum(kessel.segment(u) == list(jieba.cut(u, HMM=True)) for d in dialogues for u in d)

    print(f"CSDS val: {len(dialogues)} dialogues, {n_utt} utterances; kessel tables: {kessel.segmenter_source()}")
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    for k, (w, c) in med.items():
        print(f"  {k:7s} {1e3 * w / len(dialogues):.4f} ms/dialogue wall, {1e3 * c / len(dialogues):.4f} ms CPU")
    print(f"  ratio jieba/kessel: {med['jieba'][0] / med['kessel'][0]:.1f}x wall, {med['jieba'][1] / med['kessel'][1]:.1f}x CPU")
    print(f"  load: kessel {1e3 * load_k[0]:.0f} ms wall ({1e3 * load_k[1]:.0f} ms CPU), "
          f"jieba {1e3 * load_j[0]:.0f} ms wall ({1e3 * load_j[1]:.0f} ms CPU)")
    print(f"  identical word lists: {same}/{n_utt}")


if __name__ == "__main__":
    main()
