#!/usr/bin/env python3
"""Print a seeded random sample of summaries beside their dialogues, for a person to read and judge.

  tools/reading_sample.py --data DIALOGUES.jsonl --summaries SUMMARIES.jsonl [--n 50] [--seed 22]

SUMMARIES is `kessel summarize` output for DATA. Each sample shows the dialogue's turns as kessel reads
them (tools/emotion_labels.py), the summary, the sentences with their source turns, and the emotions the
summary reports (term, kind, strength, kept or not). The output quotes the data: keep it outside the
repository. The judgement asked for (docs/eaca.md, "A reading"): pass when the summary is faithful (says
nothing the dialogue does not), readable, and keeps the customer's real emotion when there is one.
"""
import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from emotion_labels import dialogues  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True)
    p.add_argument("--summaries", required=True)
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--seed", type=int, default=22)
    args = p.parse_args()
    ds = dialogues(args.data)
    recs = [json.loads(line) for line in open(args.summaries, encoding="utf-8") if line.strip()]
    missing = [r["id"] for r in recs if r["id"] not in ds]
    if missing:
        sys.exit(f"reading_sample: {len(missing)} summaries name dialogues not in {args.data} (first: {missing[0]})")
    sample = sorted(random.Random(args.seed).sample(range(len(recs)), min(args.n, len(recs))))
    for k, i in enumerate(sample, 1):
        r = recs[i]
        print(f"=== {k}/{len(sample)} dialogue {r['id']}")
        for t, (speaker, text) in enumerate(ds[r["id"]]):
            print(f"[{t}] {speaker}: {text}")
        print("--- summary:", r["summary"])
        for s in r["sentences"]:
            print(f"    turn {s['turn']}: {s['text']}")
        for e in r["emotions"]:
            print(f"    emotion turn {e['turn']}: {e['term']} ({e['emotion']}, {e.get('kind', '?')}, "
                  f"strength {e.get('strength', 0):.2f}) {'kept' if e['in_summary'] else 'not kept'}")
        print()


if __name__ == "__main__":
    main()
