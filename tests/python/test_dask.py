"""kessel.dask on a real LocalCluster: the reassembled output is kessel summarize's byte for byte,
after a worker is killed mid-run and after the whole run is killed and run again; bad records are
counted per shard or fail naming the shard, file and line; the report's aggregates match the records."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

kessel = pytest.importorskip("kessel")
distributed = pytest.importorskip("distributed")
import kessel.dask  # noqa: E402
from kessel.dask import shards as kshards  # noqa: E402

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = [SRC / "data" / "samples" / f"dialogues_{lang}.jsonl" for lang in ("zh", "en")]
needs_cli = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def dialogues(n, start=0):
    src = [json.loads(l) for p in SAMPLES for l in p.read_text(encoding="utf-8").splitlines() if l.strip()]
    return [json.dumps(dict(src[i % len(src)], id=f"d{i:06d}"), ensure_ascii=False) + "\n"
            for i in range(start, start + n)]


def write(path, lines):
    path.write_text("".join(lines), encoding="utf-8")
    return path


def cli_output(*paths, on_error="fail"):
    """kessel summarize on the inputs concatenated (through its standard input)."""
    data = b"".join(Path(p).read_bytes() for p in paths)
    return subprocess.run([CLI, "summarize", "--input", "-", "--quiet", "--on-error", on_error],
                          input=data, check=True, capture_output=True).stdout


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@needs_cli
def test_two_inputs_reassemble_to_the_clis_bytes_and_report(tmp_path, client):
    a = write(tmp_path / "a.jsonl", dialogues(130))
    b = write(tmp_path / "b.jsonl", dialogues(47, start=130))
    manifest = kessel.dask.summarize([str(tmp_path / "*.jsonl")], tmp_path / "out", client=client,
                                     shard_lines=20, progress=False)
    assert [i["path"] for i in manifest["inputs"]] == [str(a), str(b)]  # the glob, sorted
    assert len(manifest["shards"]) == 7 + 3
    e = manifest["shards"][1]
    assert (e["first_line"], e["lines"], e["records_written"]) == (21, 20, 20)
    assert e["kessel_version"] == kessel.__version__ and e["model_sha256"] is None
    assert e["output_sha256"] == hashlib.sha256((tmp_path / "out" / e["output"]).read_bytes()).hexdigest()
    expected = cli_output(a, b)
    assert kessel.dask.collect(tmp_path / "out", tmp_path / "all.jsonl") == str(tmp_path / "all.jsonl")
    assert (tmp_path / "all.jsonl").read_bytes() == expected
    assert b"".join(kessel.dask.collect(tmp_path / "out")) == expected  # streamed

    r = kessel.dask.report(tmp_path / "out", html=str(tmp_path / "report.html"), client=client)
    records = [json.loads(l) for l in expected.splitlines()]
    assert r["dialogues"] == len(records) == 177
    anger = sum(any(x["emotion"] == "anger" for x in rec["emotions"]) for rec in records)
    assert r["expressed"]["anger"] == anger > 0
    assert r["constraint_bound"] == sum(rec["constraint_bound"] for rec in records)
    assert sum(r["strongest"].values()) == 177
    assert r["lengths"] == {n: sum(len(x["summary"]) == n for x in records) for n in r["lengths"]}
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 4 and "Skipped records by reason</h2>\n<p>None.</p>" in page and "anger" in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


@needs_cli
def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(tmp_path, client):
    data = write(tmp_path / "in.jsonl", dialogues(6000))
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one_after_three(entry):
        if len(killed) == 0 and entry["index"] >= 2:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    manifest = kessel.dask.summarize(data, tmp_path / "out", client=client, shard_lines=100,
                                     progress=False, on_shard=kill_one_after_three)
    assert killed
    assert manifest["totals"]["records_written"] == 6000
    assert b"".join(kessel.dask.collect(tmp_path / "out")) == cli_output(data)
    client.wait_for_workers(2, timeout=60)  # the nanny brought it back: the next test has two


RUN = """
import sys
sys.path[:0] = {path!r}
import distributed, kessel.dask
if __name__ == "__main__":
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = distributed.Client(cluster)
    kessel.dask.summarize({data!r}, {out!r}, client=client, shard_lines=100, progress=False)
    print("finished")
"""


@needs_cli
def test_a_killed_run_rerun_reuses_finished_shards_and_gives_the_same_bytes(tmp_path, client):
    data = write(tmp_path / "in.jsonl", dialogues(8000))
    out = tmp_path / "out"
    script = tmp_path / "run.py"
    script.write_text(RUN.format(path=sys.path, data=str(data), out=str(out)))
    proc = subprocess.Popen([sys.executable, str(script)], start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while len(list((out / "shards").glob("*.json"))) < 8 and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it was killed: {proc.communicate()}")
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver, its cluster and its workers
    proc.wait()
    finished = len(list((out / "shards").glob("*.json")))
    assert 8 <= finished < 80 and not (out / "manifest.json").exists()

    manifest = kessel.dask.summarize(data, out, client=client, shard_lines=100, progress=False)
    assert manifest["totals"]["reused_shards"] >= finished
    assert manifest["totals"]["reused_shards"] < 80
    assert b"".join(kessel.dask.collect(out)) == cli_output(data)


def test_a_retried_shard_writes_the_same_bytes(tmp_path):
    data = write(tmp_path / "in.jsonl", dialogues(30))
    shard = kshards.plan_shards(str(data), 10, "kessel")[1]
    job = kshards.Job(None, None, {}, "fail", str(tmp_path))
    os.makedirs(tmp_path / "shards")
    first = kshards.run_shard(shard, job)
    out_path, entry_path = kshards.shard_paths(str(tmp_path), shard)
    before = Path(out_path).read_bytes()
    os.unlink(entry_path)  # as if the task died after its records and before its entry
    second = kshards.run_shard(shard, job)
    assert not second["reused"] and Path(out_path).read_bytes() == before
    assert first["output_sha256"] == second["output_sha256"]
    assert kshards.run_shard(shard, job)["reused"]  # now complete: reused
    Path(out_path).write_bytes(before[:-2])  # an output changed since: summarized again
    assert not kshards.run_shard(shard, job)["reused"] and Path(out_path).read_bytes() == before


@needs_cli
def test_bad_records_are_counted_per_shard_or_fail_naming_shard_file_and_line(tmp_path, client):
    lines = dialogues(40)
    lines[12] = "{not json\n"
    lines[33] = '{"id": "x", "turns": [{"speaker": "bot", "text": "hi"}]}\n'
    data = write(tmp_path / "in.jsonl", lines)
    m = kessel.dask.summarize(data, tmp_path / "skip", client=client, shard_lines=10, on_error="skip",
                              progress=False)
    assert [len(e["skipped"]) for e in m["shards"]] == [0, 1, 0, 1]
    assert m["shards"][1]["skipped"][0]["line"] == 13
    assert m["shards"][3]["skipped"][0]["reason"].startswith(f"{data}:34: turns[0].speaker")
    assert b"".join(kessel.dask.collect(tmp_path / "skip")) == cli_output(data, on_error="skip")
    r = kessel.dask.report(tmp_path / "skip")
    assert sum(r["skipped"].values()) == 2 and any(k.startswith("turns[i].speaker") for k in r["skipped"])
    with pytest.raises(kessel.dask.ShardError, match=rf"shard in.jsonl-\w+-000001 \({data}, lines 11-20\): {data}:13: record: invalid JSON"):
        kessel.dask.summarize(data, tmp_path / "fail", client=client, shard_lines=10, progress=False)


def _fails_after(seconds, message):
    time.sleep(seconds)
    raise kessel.dask.ShardError(message)


def test_the_error_raised_is_the_first_failing_shards_whatever_finishes_first(client):
    # Shard 3 fails at once, shard 1 seconds later: the error is shard 1's, as it would be on one
    # worker, and the shards after the failure are cancelled. Each shard is pinned to a worker, so that
    # the scheduler cannot queue shard 3 behind shard 1 (it did once, on a loaded machine).
    a, b = sorted(client.scheduler_info()["workers"])
    futures = [client.submit(time.sleep, 0.0, pure=False, workers=[b]),
               client.submit(_fails_after, 3.0, "shard 1", pure=False, workers=[a]),
               client.submit(time.sleep, 0.0, pure=False, workers=[b]),
               client.submit(_fails_after, 0.0, "shard 3", pure=False, workers=[b]),
               client.submit(time.sleep, 30.0, pure=False, workers=[a])]
    distributed.wait(futures[3])
    assert futures[1].status != "error"  # shard 3 failed first
    error = kessel.dask._first_failure(futures, 3)
    assert isinstance(error, kessel.dask.ShardError) and str(error) == "shard 1"
    assert futures[4].cancelled()


def test_inputs_that_cannot_be_sharded_are_refused_by_name(tmp_path):
    with pytest.raises(FileNotFoundError, match="no file matches"):
        kessel.dask.summarize(str(tmp_path / "none*.jsonl"), tmp_path / "out")
    transcript = SRC / "data" / "samples" / "transcript_zh_en.txt"
    with pytest.raises(ValueError, match="transcript.*cannot be sharded"):
        kessel.dask.summarize(transcript, tmp_path / "out")
    bad = write(tmp_path / "bad.jsonl", ["{nope\n"] * 3)
    with pytest.raises(ValueError, match="pass format="):
        kessel.dask.summarize(bad, tmp_path / "out")
    with pytest.raises(ValueError, match="shard_lines"):
        kessel.dask.summarize(bad, tmp_path / "out", shard_lines=0)
    with pytest.raises(FileNotFoundError, match="manifest.json does not exist"):
        kessel.dask.collect(tmp_path / "nothing")


@needs_cli
def test_the_module_command_line_summarizes_collects_reports_and_names_errors(tmp_path):
    data = write(tmp_path / "in.jsonl", dialogues(30))
    run = lambda *a: subprocess.run([sys.executable, "-m", "kessel.dask", *a], capture_output=True, text=True)
    done = run("summarize", str(data), str(tmp_path / "out"), "--shard-lines", "10", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "3 shards (0 reused), 30 records written" in done.stderr
    out = subprocess.run([sys.executable, "-m", "kessel.dask", "collect", str(tmp_path / "out")],
                         capture_output=True, check=True).stdout
    assert out == cli_output(data)
    rep = run("report", str(tmp_path / "out"), "--html", str(tmp_path / "r.html"))
    assert rep.returncode == 0 and "30 dialogues in 3 shards" in rep.stdout and (tmp_path / "r.html").exists()
    bad = run("summarize", str(tmp_path / "missing*.jsonl"), str(tmp_path / "o2"))
    assert bad.returncode == 3 and "no file matches" in bad.stderr
    assert run("summarize").returncode == 2  # usage
