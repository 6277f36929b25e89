"""`kessel summarize --input x.txt`: the plain-text transcript format (docs/text.md) through the CLI,
detected from the content, with errors that name the file and line."""
import json
import os
import subprocess

CLI = os.environ.get("KESSEL_CLI", "kessel")
SOURCE = os.environ.get("KESSEL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(SOURCE, "data", "samples", "transcript_zh_en.txt")


def run(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_summarizes_the_sample_transcript():
    p = run("summarize", "--input", SAMPLE, "--explain")
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    assert [r["id"] for r in recs] == ["zh-txt-1", "en-txt-1"]
    zh, en = recs
    assert zh["summary"].startswith("用户:") and en["summary"].startswith("Customer: ")
    assert [t["speaker"] for t in zh["turns"]] == ["customer", "agent", "customer", "agent"]
    assert zh["turns"][2]["text"] == "订单号123456，\n这已经是第二次了，太失望了。"  # the continuation line
    assert any(e["term"] for e in zh["emotions"])


def test_the_format_can_be_named(tmp_path):
    path = tmp_path / "call.log"
    path.write_text("Customer: where is my parcel? I am angry.\nAgent: It ships today.\n", encoding="utf-8")
    p = run("summarize", "--input", path, "--format", "transcript")
    assert p.returncode == 0, p.stderr
    (rec,) = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    assert rec["id"] == "line1"


def test_a_line_before_any_label_is_an_error_naming_it(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Customer: hi\nAgent: hello\n---\nno label here\nAgent: x\n", encoding="utf-8")
    p = run("summarize", "--input", path)
    assert p.returncode != 0
    assert f"{path}:4: label: no speaker label before the first turn" in p.stderr, p.stderr


def test_jsonl_samples_are_still_detected_as_jsonl():
    p = run("summarize", "--input", os.path.join(SOURCE, "data", "samples", "dialogues_zh.jsonl"))
    assert p.returncode == 0, p.stderr
    assert all(json.loads(line)["id"].startswith("zh-") for line in p.stdout.splitlines() if line.strip())
