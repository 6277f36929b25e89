"""kessel on Dask distributed: summarize JSONL files of any size on a cluster (docs/scale-out.md).

    from distributed import Client
    import kessel.dask
    client = Client("tcp://scheduler:8786")            # or None: a LocalCluster on this machine
    manifest = kessel.dask.summarize(["day1/*.jsonl"], "out/", model="csds.safetensors",
                                     client=client)
    kessel.dask.collect("out/", "summaries.jsonl")      # = kessel summarize on the inputs, concatenated
    kessel.dask.report("out/", html="report.html")      # emotions, constraint, lengths, skips

Each input is cut into shards of ``shard_lines`` lines, one task each; a task loads the summarizer
once per worker process, summarizes its shard and writes its records and its manifest entry
atomically under ``out_dir/shards/``. The run's manifest (``out_dir/manifest.json``) lists every
shard: input path and byte range, records read / written / skipped with reasons, output sha256,
model sha256, kessel version. Re-running the same call reuses every shard whose entry is complete
and matches; a lost worker's tasks are run again by Dask and write the same bytes.

Differences from one ``kessel summarize`` over the concatenated inputs, by construction: duplicate
dialogue ids are checked within a shard, not across shards; and transcripts (whose dialogues span
lines) are refused: convert them to JSONL first (``kessel text`` docs/text.md) or summarize them
with the CLI.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import sys
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

import kessel

from .report import report
from .shards import Job, Shard, ShardError, plan_shards, run_shard, sha256_file, write_atomic

__all__ = ["summarize", "collect", "report", "ShardError", "DEFAULT_SHARD_LINES"]

# Lines per shard: docs/scale-out.md measures the per-task overhead and the shard size that keeps it
# under 5% of a shard's work.
DEFAULT_SHARD_LINES = 1000
MANIFEST = "manifest.json"
# Lines read from an input's head to detect its format (kessel.detect_format).
_DETECT_LINES = 1000


def _expand(inputs: Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]]) -> List[str]:
    """Paths and globs -> absolute paths, in the order given (a glob's matches sorted)."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    paths: List[str] = []
    for item in inputs:
        item = os.fspath(item)
        matches = sorted(glob.glob(item)) if glob.has_magic(item) else [item]
        if not matches:
            raise FileNotFoundError(f"kessel.dask.summarize: inputs: no file matches {item!r}")
        for m in matches:
            if not os.path.isfile(m):
                raise FileNotFoundError(f"kessel.dask.summarize: inputs: {m!r} is not a file")
            paths.append(os.path.abspath(m))
    if not paths:
        raise ValueError("kessel.dask.summarize: inputs is empty")
    if len(set(paths)) != len(paths):
        raise ValueError("kessel.dask.summarize: inputs names a file twice")
    return paths


def _detect(path: str, given: Optional[str]) -> str:
    """The input's format: `given`, else detected from its first lines as kessel summarize does."""
    if given is not None:
        if given not in ("csds", "tweetsumm", "kessel"):
            raise ValueError(f"kessel.dask.summarize: format must be csds, tweetsumm or kessel, got {given!r}")
        return given
    with open(path, "rb") as f:
        head = b"".join(line for _, line in zip(range(_DETECT_LINES), f))
    try:
        fmt = kessel.detect_format(head, path)
    except ValueError as e:
        raise ValueError(f"kessel.dask.summarize: {e} (no record in the first {_DETECT_LINES} lines "
                         "tells the format: pass format=)") from None
    if fmt == "transcript":
        raise ValueError(f"kessel.dask.summarize: {path} is a plain-text transcript, whose dialogues "
                         "span lines and cannot be sharded: summarize it with `kessel summarize`, or "
                         "convert it to JSONL")
    return fmt


def _local_client():
    """A LocalCluster of one single-threaded worker process per core (closed by the caller)."""
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster), cluster


def _progress_line(done: int, total: int, reused: int, records: int, started: float) -> str:
    rate = records / max(time.perf_counter() - started, 1e-9)
    return (f"kessel.dask: {done}/{total} shards ({reused} reused), {records} records written, "
            f"{rate:.0f} records/s")


def summarize(inputs, out_dir, model=None, client=None, shard_lines: int = DEFAULT_SHARD_LINES, *,
              format: Optional[str] = None, on_error: str = "fail",
              options: Optional[Dict[str, Any]] = None, progress: bool = True,
              on_shard: Optional[Callable[[Dict[str, Any]], None]] = None) -> Dict[str, Any]:
    """Summarizes `inputs` (paths or globs of JSONL files: csds, tweetsumm or kessel format) on
    `client`'s cluster into `out_dir`; returns the manifest it writes to out_dir/manifest.json.

    model: a ``kessel train`` safetensors file every worker can read at this path (its sha256 is
    checked on each worker); None: the unsupervised ranker. options: other kessel.Summarizer keyword
    arguments (max_sentences, voice, ...). client: a distributed.Client; None uses the current one
    (distributed.get_client()) or, when there is none, a LocalCluster with one worker process per
    core for this call. on_error: "fail" raises ShardError naming the shard, the file and the line of
    the first bad record; "skip" counts bad records per shard in the manifest. progress prints a
    line per finished shard to stderr (at most one a second); on_shard(entry) is called with each
    finished shard's manifest entry, in completion order.
    """
    if on_error not in ("fail", "skip"):
        raise ValueError(f"kessel.dask.summarize: on_error must be 'fail' or 'skip', got {on_error!r}")
    if not isinstance(shard_lines, int) or shard_lines < 1:
        raise ValueError(f"kessel.dask.summarize: shard_lines must be a positive int, got {shard_lines!r}")
    options = dict(options or {})
    if "model" in options:
        raise ValueError("kessel.dask.summarize: give the model as model=, not in options")
    paths = _expand(inputs)
    out_dir = os.path.abspath(os.fspath(out_dir))
    os.makedirs(os.path.join(out_dir, "shards"), exist_ok=True)
    model_path = os.path.abspath(os.fspath(model)) if model is not None else None
    model_sha = sha256_file(model_path) if model_path else None
    if model_path and model_sha is None:
        raise FileNotFoundError(f"kessel.dask.summarize: model {model_path!r} does not exist")
    kessel.Summarizer(model=model_path, **options)  # a bad option or model fails here, not on a worker
    job = Job(model_path, model_sha, options, on_error, out_dir)
    formats = {p: _detect(p, format) for p in paths}
    shards: List[Shard] = [s for p in paths for s in plan_shards(p, shard_lines, formats[p])]

    own_cluster = None
    if client is None:
        from distributed import get_client
        try:
            client = get_client()
        except ValueError:
            client, own_cluster = _local_client()
    try:
        entries = _run(client, shards, job, progress, on_shard)
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    manifest = {
        "kessel_version": kessel.__version__, "model": model_path, "model_sha256": model_sha,
        "options": options, "on_error": on_error, "shard_lines": shard_lines,
        "inputs": [{"path": p, "format": formats[p], "bytes": os.path.getsize(p),
                    "shards": sum(1 for s in shards if s.input == p)} for p in paths],
        "shards": entries,
        "totals": {k: sum(e[k] for e in entries) for k in ("records_read", "records_written")},
    }
    manifest["totals"]["skipped"] = sum(len(e["skipped"]) for e in entries)
    manifest["totals"]["reused_shards"] = sum(1 for e in entries if e["reused"])
    write_atomic(os.path.join(out_dir, MANIFEST),
                 json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8"))
    return manifest


def _run(client, shards: Sequence[Shard], job: Job, progress: bool,
         on_shard: Optional[Callable[[Dict[str, Any]], None]]) -> List[Dict[str, Any]]:
    """Submits one task per shard and gathers the entries in shard order. A failure cancels the shards
    after it and raises the error of the first failing shard in input order (_first_failure)."""
    from distributed import as_completed
    token = hashlib.sha256(f"{time.time_ns()}-{os.getpid()}".encode()).hexdigest()[:8]
    futures = client.map(run_shard, list(shards), job=job, pure=False,
                         key=[f"kessel-shard-{s.name}-{token}" for s in shards])
    order = {f.key: i for i, f in enumerate(futures)}
    entries: List[Optional[Dict[str, Any]]] = [None] * len(shards)
    started = last = time.perf_counter()
    done = reused = records = 0
    try:
        for future in as_completed(futures):
            if future.status == "error":
                raise _first_failure(futures, order[future.key])
            entry = future.result()
            entries[order[future.key]] = entry
            done += 1
            reused += entry["reused"]
            records += entry["records_written"]
            if on_shard is not None:
                on_shard(entry)
            now = time.perf_counter()
            if progress and (now - last >= 1.0 or done == len(shards)):
                print(_progress_line(done, len(shards), reused, records, started), file=sys.stderr)
                last = now
    except BaseException:
        client.cancel(futures)
        raise
    return [e for e in entries if e is not None]


def _first_failure(futures, failed: int) -> BaseException:
    """The error of the first failing shard in input order, given that shard `failed` has failed: the
    shards after it are cancelled and those before it waited for, so which error is raised does not
    depend on which worker finished first (shard 4 may fail before shard 2 does)."""
    from distributed import wait
    for f in futures[failed + 1:]:
        f.cancel()
    wait(futures[:failed])
    for f in futures[:failed + 1]:
        if f.status == "error":
            return f.exception()
    return futures[failed].exception()


def _manifest(out_dir) -> Dict[str, Any]:
    path = os.path.join(os.fspath(out_dir), MANIFEST)
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except FileNotFoundError:
        raise FileNotFoundError(f"kessel.dask: {path} does not exist (has summarize() finished?)") from None


def _shard_bytes(out_dir: str, entry: Dict[str, Any]) -> bytes:
    path = os.path.join(out_dir, entry["output"])
    with open(path, "rb") as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() != entry["output_sha256"]:
        raise ShardError(f"kessel.dask.collect: {path} does not match its manifest entry's sha256 "
                         "(changed since the run; run summarize() again)")
    return data


def collect(out_dir, output=None) -> Union[str, Iterator[bytes]]:
    """The records in input order (each shard checked against its sha256): written to `output` (a
    path, atomically; returned), or, without one, streamed as an iterator of JSONL lines (bytes)."""
    out_dir = os.fspath(out_dir)
    manifest = _manifest(out_dir)
    if output is None:
        return (line for e in manifest["shards"]
                for line in _shard_bytes(out_dir, e).splitlines(keepends=True))
    output = os.fspath(output)
    tmp = f"{output}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            for e in manifest["shards"]:
                f.write(_shard_bytes(out_dir, e))
        os.replace(tmp, output)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return output
