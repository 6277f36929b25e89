"""kessel summarize as a filter: --input - --output - reads JSONL on stdin and writes each record
as soon as its line is read (a real pipe), in bounded memory, with skips on stderr; a file input is
streamed the same way and gives the same bytes."""
import json
import os
import resource
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = [SRC / "data" / "samples" / f"dialogues_{lang}.jsonl" for lang in ("zh", "en")]
pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def dialogues(n):
    """n distinct dialogues (the bundled samples under new ids), as JSONL lines."""
    src = [json.loads(l) for p in SAMPLES for l in p.read_text(encoding="utf-8").splitlines() if l.strip()]
    return [json.dumps(dict(src[i % len(src)], id=f"d{i:06d}"), ensure_ascii=False) + "\n" for i in range(n)]


def write(path, lines):
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_pipe_through_a_shell_counts_every_record(tmp_path):
    data = write(tmp_path / "in.jsonl", dialogues(120))
    out = subprocess.run(f"cat {data} | {CLI} summarize --input - --output - | wc -l", shell=True,
                         check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "120"


@pytest.mark.parametrize("threads", ["1", "2"])
def test_stdin_output_equals_the_file_inputs(tmp_path, threads):
    data = write(tmp_path / "in.jsonl", dialogues(100))
    from_file = subprocess.run([CLI, "summarize", "--input", str(data), "--threads", threads],
                               check=True, capture_output=True).stdout
    with open(data, "rb") as f:
        from_pipe = subprocess.run([CLI, "summarize", "--input", "-", "--output", "-", "--threads", threads],
                                   stdin=f, check=True, capture_output=True).stdout
    assert from_pipe == from_file
    ids = [json.loads(l)["id"] for l in from_pipe.decode().splitlines()]
    assert ids == [f"d{i:06d}" for i in range(100)]  # in input order


def test_each_record_is_written_before_the_next_line_is_read():
    # One line in, one record out, while stdin stays open: the filter neither waits for the end of
    # its input nor holds its output back.
    proc = subprocess.Popen([CLI, "summarize", "--input", "-", "--output", "-", "--quiet"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for i, line in enumerate(dialogues(5)):
            proc.stdin.write(line.encode())
            proc.stdin.flush()
            record = json.loads(proc.stdout.readline())
            assert record["id"] == f"d{i:06d}"
        proc.stdin.close()
        assert proc.stdout.read() == b""
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()


def peak_rss_kib(command, stdin_path):
    """Peak resident memory of one run of `command` (its own, measured by a fresh wrapper process)."""
    script = ("import resource, subprocess, sys; f = open(sys.argv[1], 'rb'); "
              "subprocess.run(sys.argv[2:], stdin=f, stdout=subprocess.DEVNULL, check=True); "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run(["/usr/bin/python3", "-c", script, str(stdin_path), *command],
                         check=True, capture_output=True, text=True)
    return int(out.stdout)


@pytest.mark.skipif("ASAN_OPTIONS" in os.environ, reason="AddressSanitizer's quarantine holds freed memory")
def test_memory_does_not_grow_with_the_input(tmp_path):
    small = write(tmp_path / "small.jsonl", dialogues(1000))
    large = write(tmp_path / "large.jsonl", dialogues(20000))  # about 20 MB of JSONL
    command = [CLI, "summarize", "--input", "-", "--output", "-", "--quiet"]
    rss_small, rss_large = peak_rss_kib(command, small), peak_rss_kib(command, large)
    assert large.stat().st_size > 15 * 2**20
    # Reading the whole input would add its 20 MB (and the parsed dialogues, several times that);
    # a stream adds only the duplicate-id table (about a hundred bytes per dialogue).
    assert rss_large - rss_small < 8 * 1024, (rss_small, rss_large)


def test_bad_lines_are_skipped_on_stderr_with_their_line_numbers(tmp_path):
    lines = dialogues(6)
    lines[2] = "{not json\n"
    lines[4] = '{"id": "x", "turns": [{"speaker": "bot", "text": "hi"}]}\n'
    with open(write(tmp_path / "in.jsonl", lines), "rb") as f:
        out = subprocess.run([CLI, "summarize", "--input", "-", "--output", "-", "--on-error", "skip"],
                             stdin=f, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [json.loads(l)["id"] for l in out.stdout.splitlines()] == ["d000000", "d000001", "d000003", "d000005"]
    assert "skipped <stdin>:3: record: invalid JSON" in out.stderr
    assert "skipped <stdin>:5: turns[0].speaker" in out.stderr
    assert "6 dialogues read" not in out.stderr and "4 dialogues read, 2 records skipped" in out.stderr


def test_under_fail_the_records_before_the_bad_line_are_out_and_the_error_names_it(tmp_path):
    lines = dialogues(4)
    lines[3] = "{not json\n"
    with open(write(tmp_path / "in.jsonl", lines), "rb") as f:
        out = subprocess.run([CLI, "summarize", "--input", "-", "--output", "-"], stdin=f,
                             capture_output=True, text=True)
    assert out.returncode != 0
    assert len(out.stdout.splitlines()) == 3  # a filter: what was summarized is already downstream
    assert "<stdin>:4: record: invalid JSON" in out.stderr


def test_format_detected_past_bad_first_lines_and_transcripts_read_from_stdin(tmp_path):
    lines = ["{not json\n", "\n"] + dialogues(3)
    with open(write(tmp_path / "in.jsonl", lines), "rb") as f:
        out = subprocess.run([CLI, "summarize", "--input", "-", "--on-error", "skip"], stdin=f,
                             capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == 3 and "skipped <stdin>:1:" in out.stderr
    transcript = SRC / "data" / "samples" / "transcript_zh_en.txt"
    with open(transcript, "rb") as f:
        piped = subprocess.run([CLI, "summarize", "--input", "-"], stdin=f, check=True, capture_output=True).stdout
    assert piped == subprocess.run([CLI, "summarize", "--input", str(transcript)], check=True,
                                   capture_output=True).stdout
    assert len(piped.splitlines()) >= 2
