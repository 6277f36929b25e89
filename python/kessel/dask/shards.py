"""Shards: a JSONL input cut at line boundaries, and the task that summarizes one.

A shard is a byte range of one input file holding whole lines. Its task reads the range, summarizes
it with the worker's cached ``kessel.Summarizer`` (``Summarizer.summarize_jsonl``, the CLI's own
records and line numbers), and writes two files under ``<out_dir>/shards/``, each atomically (a
temporary beside it, then a rename): the records (``<name>.jsonl``), then the manifest entry
(``<name>.json``). An entry is written only after its records, so an entry names a complete shard; a
re-run reuses a shard whose entry matches its input bytes, model and options and whose records
still hash to the entry's sha256. Summaries are deterministic, so a retried task writes the same
bytes.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import threading
import uuid
from typing import Any, Dict, List, Optional

import kessel

ENTRY_VERSION = 1


class ShardError(ValueError):
    """A shard failed (on_error="fail" and a bad record, or a file that cannot be read)."""


@dataclasses.dataclass(frozen=True)
class Job:
    """What every shard of one run shares: the summarizer, its model and the reading policy."""

    model: Optional[str]          # a safetensors file, by a path every worker can read; None: no model
    model_sha256: Optional[str]
    options: Dict[str, Any]       # keyword arguments of kessel.Summarizer besides model
    on_error: str                 # "fail" | "skip"
    out_dir: str
    kessel_version: str = kessel.__version__

    def key(self) -> str:
        return json.dumps([self.model, self.model_sha256, self.options], sort_keys=True)


@dataclasses.dataclass(frozen=True)
class Shard:
    input: str        # absolute path of the input file
    index: int        # position among its input's shards
    start: int        # byte range [start, end) of whole lines
    end: int
    first_line: int   # number of its first line in the input (1-based)
    lines: int        # lines in the range, blank ones included
    format: str       # csds | tweetsumm | kessel, detected once per input

    @property
    def name(self) -> str:
        """A file name unique to (input path, index), readable: <stem>-<path hash>-<index>."""
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(self.input))[:40]
        digest = hashlib.sha256(self.input.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        return f"{stem}-{digest}-{self.index:06d}"

    def where(self) -> str:
        return f"shard {self.name} ({self.input}, lines {self.first_line}-{self.first_line + self.lines - 1})"


def plan_shards(path: str, shard_lines: int, fmt: str) -> List[Shard]:
    """Cuts `path` into shards of `shard_lines` lines (the last one shorter)."""
    shards: List[Shard] = []
    start = pos = 0
    first = line = 1
    with open(path, "rb") as f:
        for raw in f:
            pos += len(raw)
            if line - first + 1 == shard_lines:
                shards.append(Shard(path, len(shards), start, pos, first, shard_lines, fmt))
                start, first = pos, line + 1
            line += 1
    if pos > start:
        shards.append(Shard(path, len(shards), start, pos, first, line - first, fmt))
    return shards


def sha256_file(path: str) -> Optional[str]:
    """The file's sha256, or None when it does not exist."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except FileNotFoundError:
        return None
    return h.hexdigest()


def write_atomic(path: str, data: bytes) -> None:
    """Writes `data` to a temporary beside `path`, flushes it to disk, then renames it over `path`."""
    tmp = f"{path}.tmp-{uuid.uuid4().hex}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_range(shard: Shard) -> bytes:
    with open(shard.input, "rb") as f:
        f.seek(shard.start)
        data = f.read(shard.end - shard.start)
    if len(data) != shard.end - shard.start:
        raise ShardError(f"{shard.where()}: the input is shorter than when the run was planned "
                         f"({shard.start + len(data)} bytes, expected at least {shard.end})")
    return data


def shard_paths(out_dir: str, shard: Shard) -> tuple[str, str]:
    base = os.path.join(out_dir, "shards", shard.name)
    return base + ".jsonl", base + ".json"


# One summarizer per worker process and job (model, sha256, options): loaded by the first task that
# needs it, reused by the others.
_summarizers: Dict[str, kessel.Summarizer] = {}
_summarizers_lock = threading.Lock()


def cached_summarizer(job: Job) -> kessel.Summarizer:
    key = job.key()
    with _summarizers_lock:
        if key not in _summarizers:
            if job.model is not None:
                found = sha256_file(job.model)
                if found != job.model_sha256:
                    raise ShardError(f"model {job.model}: on this worker its sha256 is {found}, "
                                     f"not the run's {job.model_sha256} (every worker must read "
                                     "the same model file)")
            _summarizers[key] = kessel.Summarizer(model=job.model, **job.options)
        return _summarizers[key]


def _entry_matches(entry: Dict[str, Any], shard: Shard, input_sha: str, job: Job) -> bool:
    return (entry.get("version") == ENTRY_VERSION and entry.get("complete") is True
            and entry.get("input") == shard.input and entry.get("start") == shard.start
            and entry.get("end") == shard.end and entry.get("first_line") == shard.first_line
            and entry.get("input_sha256") == input_sha and entry.get("format") == shard.format
            and entry.get("model_sha256") == job.model_sha256 and entry.get("options") == job.options
            and entry.get("on_error") == job.on_error
            and entry.get("kessel_version") == job.kessel_version)


def _previous_entry(entry_path: str) -> Optional[Dict[str, Any]]:
    try:
        with open(entry_path, "rb") as f:
            return json.loads(f.read())
    except (FileNotFoundError, ValueError):
        return None  # absent, or not an entry: the shard is summarized again


def run_shard(shard: Shard, job: Job) -> Dict[str, Any]:
    """The task: summarizes one shard unless a complete matching entry exists; returns the entry
    with "reused" telling which."""
    out_path, entry_path = shard_paths(job.out_dir, shard)
    content = read_range(shard)
    input_sha = hashlib.sha256(content).hexdigest()
    previous = _previous_entry(entry_path)
    if (previous is not None and _entry_matches(previous, shard, input_sha, job)
            and sha256_file(out_path) == previous.get("output_sha256")):
        return dict(previous, reused=True)
    try:
        result = cached_summarizer(job).summarize_jsonl(
            content, name=shard.input, first_line=shard.first_line, format=shard.format,
            on_error=job.on_error)
    except ValueError as e:
        raise ShardError(f"{shard.where()}: {e}") from None
    write_atomic(out_path, result["output"])
    entry = {
        "version": ENTRY_VERSION, "complete": True,
        "shard": shard.name, "input": shard.input, "index": shard.index,
        "start": shard.start, "end": shard.end, "first_line": shard.first_line, "lines": shard.lines,
        "format": shard.format, "input_sha256": input_sha,
        "records_read": result["lines"], "dialogues": result["dialogues"],
        "records_written": result["written"], "skipped": result["skipped"],
        "warnings": result["warnings"],
        "output": os.path.relpath(out_path, job.out_dir),
        "output_sha256": hashlib.sha256(result["output"]).hexdigest(),
        "model": job.model, "model_sha256": job.model_sha256, "options": job.options,
        "on_error": job.on_error, "kessel_version": job.kessel_version,
    }
    write_atomic(entry_path, json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return dict(entry, reused=False)
