"""Aggregates of a kessel.dask run, computed per shard in parallel and merged: which emotions the
customers expressed, the strongest one, how often the emotion constraint bound, how long the
summaries are, and which records were skipped and why. Written as a text table and as an HTML page
with inline SVG plots (no script, no network)."""
from __future__ import annotations

import collections
import html as html_lib
import json
import os
import re
from typing import Any, Dict, List, Optional

from . import svg
from .shards import write_atomic

_LENGTH_BIN = 20  # characters per bar of the summary-length histogram


def shard_stats(path: str) -> Dict[str, Any]:
    """One output shard's counts (mergeable by merge_stats)."""
    expressed: collections.Counter = collections.Counter()
    strongest: collections.Counter = collections.Counter()
    lengths: collections.Counter = collections.Counter()
    n = bound = satisfied = 0
    with open(path, "rb") as f:
        for line in f:
            r = json.loads(line)
            n += 1
            emotions = r["emotions"]
            for e in {e["emotion"] for e in emotions}:
                expressed[e] += 1
            strongest[max(emotions, key=lambda e: e["strength"])["emotion"] if emotions else "(none)"] += 1
            bound += bool(r["constraint_bound"])
            satisfied += bool(r["constraint_satisfied"])
            lengths[len(r["summary"])] += 1
    return {"dialogues": n, "expressed": dict(expressed), "strongest": dict(strongest),
            "constraint_bound": bound, "constraint_satisfied": satisfied,
            "lengths": {str(k): v for k, v in lengths.items()}}


def merge_stats(parts: List[Dict[str, Any]]) -> Dict[str, Any]:
    out = {"dialogues": 0, "expressed": collections.Counter(), "strongest": collections.Counter(),
           "constraint_bound": 0, "constraint_satisfied": 0, "lengths": collections.Counter()}
    for p in parts:
        for k in ("dialogues", "constraint_bound", "constraint_satisfied"):
            out[k] += p[k]
        for k in ("expressed", "strongest"):
            out[k].update(p[k])
        out["lengths"].update({int(length): count for length, count in p["lengths"].items()})
    return out


def skip_reason(reason: str) -> str:
    """A skipped record's reason without its file, line and indices: 'turns[i].speaker: expected
    "customer" or "agent"', so that equal problems count together."""
    m = re.match(r"^.*?:\d+: (.*)$", reason, re.S)
    text = m.group(1) if m else reason
    text = re.sub(r"\[\d+\]", "[i]", text)
    field, _, what = text.partition(": ")
    what = re.split(r"[,;(]", what, maxsplit=1)[0].strip()
    return f"{field}: {what}" if what else field


def _quantile(lengths: collections.Counter, q: float) -> int:
    total = sum(lengths.values())
    seen = 0
    for length in sorted(lengths):
        seen += lengths[length]
        if seen >= q * total:
            return length
    return 0


def _table(stats: Dict[str, Any], skipped: collections.Counter, shards: int) -> str:
    n = max(stats["dialogues"], 1)
    rows = [f"kessel.dask report: {stats['dialogues']} dialogues in {shards} shards",
            "", "customer emotion        expressed in   strongest in"]
    emotions = sorted(set(stats["expressed"]) | set(stats["strongest"]),
                      key=lambda e: (-stats["expressed"].get(e, 0), e))
    for e in emotions:
        rows.append(f"  {e:<20} {100 * stats['expressed'].get(e, 0) / n:10.1f}%"
                    f" {100 * stats['strongest'].get(e, 0) / n:13.1f}%")
    lengths = stats["lengths"]
    rows += ["", f"emotion constraint bound: {100 * stats['constraint_bound'] / n:.1f}% of dialogues; "
             f"satisfied: {100 * stats['constraint_satisfied'] / n:.1f}%",
             f"summary length (characters): median {_quantile(lengths, 0.5)}, "
             f"p90 {_quantile(lengths, 0.9)}, max {max(lengths) if lengths else 0}",
             "", f"skipped records: {sum(skipped.values())}"]
    rows += [f"  {count:8d}  {reason}" for reason, count in skipped.most_common()]
    return "\n".join(rows) + "\n"


def _html(stats: Dict[str, Any], skipped: collections.Counter, table: str) -> str:
    n = max(stats["dialogues"], 1)
    emotions = sorted(stats["expressed"], key=lambda e: -stats["expressed"][e])
    strongest = sorted(stats["strongest"], key=lambda e: -stats["strongest"][e])
    bins: collections.Counter = collections.Counter()
    for length, count in stats["lengths"].items():
        bins[length // _LENGTH_BIN * _LENGTH_BIN] += count
    hist = [(f"{b}–{b + _LENGTH_BIN - 1}", bins[b]) for b in range(0, max(bins, default=0) + 1, _LENGTH_BIN)]
    parts = [
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>kessel.dask report</title>",
        "<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:60em}"
        "h2{font-size:1.1em;margin-top:2em}pre{background:#f6f6f6;padding:1em}</style>",
        f"<h1>kessel.dask report</h1><p>{stats['dialogues']} dialogues.</p>",
        "<h2>Share of dialogues whose customer expressed each emotion</h2>",
        svg.bar_chart([(e, 100 * stats["expressed"][e] / n) for e in emotions], unit="%"),
        "<h2>The strongest emotion expressed (share of dialogues)</h2>",
        svg.bar_chart([(e, 100 * stats["strongest"][e] / n) for e in strongest], unit="%"),
        "<h2>Emotion constraint</h2>",
        svg.bar_chart([("bound", 100 * stats["constraint_bound"] / n),
                       ("satisfied", 100 * stats["constraint_satisfied"] / n)], unit="%"),
        f"<h2>Summary length (characters, bins of {_LENGTH_BIN})</h2>",
        svg.bar_chart(hist, unit=" dialogues", integer=True),
        "<h2>Skipped records by reason</h2>",
        svg.bar_chart(skipped.most_common(), unit="", integer=True) if skipped else "<p>None.</p>",
        f"<h2>Table</h2><pre>{html_lib.escape(table)}</pre></html>",
    ]
    return "\n".join(parts) + "\n"


def report(out_dir, html: Optional[str] = None, client=None) -> Dict[str, Any]:
    """The aggregates of the run in `out_dir`, computed per shard (on `client`'s workers when given,
    else here) and merged. Returns {"dialogues", "expressed": {emotion: dialogues},
    "strongest": {emotion or "(none)": dialogues}, "constraint_bound", "constraint_satisfied",
    "lengths": {characters: dialogues}, "skipped": {reason: records}, "table": str}; html writes
    the page (atomically) to that path."""
    from . import _manifest  # the package's reader (it names a missing manifest)
    out_dir = os.fspath(out_dir)
    manifest = _manifest(out_dir)
    paths = [os.path.join(out_dir, e["output"]) for e in manifest["shards"]]
    if client is not None:
        parts = client.gather(client.map(shard_stats, paths, pure=False))
    else:
        parts = [shard_stats(p) for p in paths]
    stats = merge_stats(parts)
    skipped = collections.Counter(skip_reason(s["reason"]) for e in manifest["shards"] for s in e["skipped"])
    table = _table(stats, skipped, len(paths))
    if html is not None:
        write_atomic(os.fspath(html), _html(stats, skipped, table).encode("utf-8"))
    return {"dialogues": stats["dialogues"], "expressed": dict(stats["expressed"]),
            "strongest": dict(stats["strongest"]), "constraint_bound": stats["constraint_bound"],
            "constraint_satisfied": stats["constraint_satisfied"],
            "lengths": dict(stats["lengths"]),
            "skipped": dict(skipped), "table": table}
