"""python3 -m kessel.dask: kessel.dask from a shell (docs/scale-out.md).

    python3 -m kessel.dask summarize 'in/*.jsonl' out/ [--model M] [--scheduler tcp://HOST:8786]
        [--shard-lines 1000] [--format F] [--on-error fail|skip]
    python3 -m kessel.dask collect out/ [--output all.jsonl]     (default: standard output)
    python3 -m kessel.dask report out/ [--html report.html] [--scheduler ...]

Without --scheduler, summarize runs on a LocalCluster of one single-threaded worker process per core.
Exit status as kessel's CLI: 0 done, 2 a usage error, 3 bad input or a failed run (the message names
the shard, file and line).
"""
from __future__ import annotations

import argparse
import sys

from . import DEFAULT_SHARD_LINES, collect, report, summarize


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python3 -m kessel.dask", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("summarize", help="summarize JSONL inputs into an output directory")
    s.add_argument("inputs", nargs="+", help="JSONL files or globs (csds, tweetsumm or kessel format)")
    s.add_argument("out_dir")
    s.add_argument("--model", help="a kessel train model every worker reads at this path")
    s.add_argument("--scheduler", help="a Dask scheduler address (default: a LocalCluster here)")
    s.add_argument("--shard-lines", type=int, default=DEFAULT_SHARD_LINES)
    s.add_argument("--format", choices=["csds", "tweetsumm", "kessel"])
    s.add_argument("--on-error", choices=["fail", "skip"], default="fail")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    c = sub.add_parser("collect", help="the records in input order")
    c.add_argument("out_dir")
    c.add_argument("--output", help="a file (written atomically); default: standard output")
    r = sub.add_parser("report", help="emotions, constraint, lengths and skips of a run")
    r.add_argument("out_dir")
    r.add_argument("--html", help="also write the HTML page here")
    r.add_argument("--scheduler", help="compute the per-shard parts on this cluster")
    return ap


def _client(address):
    if address is None:
        return None
    from distributed import Client
    return Client(address)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)  # usage errors exit 2
    try:
        if args.command == "summarize":
            client = _client(args.scheduler)
            m = summarize(args.inputs, args.out_dir, model=args.model, client=client,
                          shard_lines=args.shard_lines, format=args.format, on_error=args.on_error,
                          progress=not args.quiet)
            t = m["totals"]
            print(f"kessel.dask: {len(m['shards'])} shards ({t['reused_shards']} reused), "
                  f"{t['records_written']} records written, {t['skipped']} skipped; "
                  f"manifest {args.out_dir}/manifest.json", file=sys.stderr)
        elif args.command == "collect":
            if args.output:
                collect(args.out_dir, args.output)
            else:
                for line in collect(args.out_dir):
                    sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
        else:
            print(report(args.out_dir, html=args.html, client=_client(args.scheduler))["table"], end="")
    except (OSError, ValueError) as e:  # bad input, a failed shard (ShardError), a missing file
        print(f"kessel.dask {args.command}: {e}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
