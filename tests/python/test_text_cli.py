"""`kessel rouge` against the independent tests/python/rouge_ref.py, and `kessel lexicon expand`."""
import json
import os
import random
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import rouge_ref  # noqa: E402

CLI = os.environ.get("KESSEL_CLI", "kessel")
SOURCE = os.environ.get("KESSEL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def run(*args, check=True):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"kessel {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def random_zh(rng):
    alphabet = "用户客服询问回答退款快递订单没到。。，！？ab1"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))


def random_en(rng):
    words = ["the", "order", "late", "refund", "Agent", "customer", "2", "asks", "is", "not", "x1"]
    out = []
    for _ in range(rng.randint(0, 25)):
        w = rng.choice(words)
        if rng.random() < 0.15:
            w += "."
        elif rng.random() < 0.1:
            w += ","
        out.append(w)
    return " ".join(out)


def compare(tmp_path, cands, refs, lang, split="period"):
    pred, ref = tmp_path / "pred.txt", tmp_path / "ref.txt"
    write_lines(pred, cands)
    write_lines(ref, refs)
    out = json.loads(run("rouge", str(pred), str(ref), "--lang", lang, "--zh-split", split, "--json").stdout)
    best, avg = rouge_ref.corpus(cands, refs, lang, split)
    assert out["count"] == len(cands)
    for k in ("rouge1", "rouge2", "rougeL"):
        assert out["best"][k]["f"] == pytest.approx(best[k], abs=1e-9), k
        assert out["avg"][k]["f"] == pytest.approx(avg[k], abs=1e-9), k


@pytest.mark.parametrize("split", ["period", "none", "period-eos"])
def test_rouge_zh_matches_reference_on_random_strings(tmp_path, split):
    rng = random.Random(7)
    cands = [random_zh(rng) or "空" for _ in range(60)]
    refs = [random_zh(rng) or "空" for _ in range(60)]
    compare(tmp_path, cands, refs, "zh", split)


def test_rouge_en_multi_reference_matches_reference(tmp_path):
    rng = random.Random(11)
    cands = [random_en(rng) for _ in range(60)]
    refs = [json.dumps([random_en(rng) for _ in range(rng.randint(1, 3))]) for _ in range(60)]
    compare(tmp_path, cands, refs, "en")


def test_rouge_hand_example(tmp_path):
    write_lines(tmp_path / "p.txt", ["用户问。"])
    write_lines(tmp_path / "r.txt", ["用户问好。"])
    out = json.loads(run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r.txt"), "--json").stdout)
    assert out["best"]["rouge1"]["f"] == pytest.approx(100 * 2 * 0.8 / 1.8)
    assert out["best"]["rouge2"]["p"] == pytest.approx(100 * 2 / 3)


def test_rouge_detects_the_language_from_the_references(tmp_path):
    # Scored as zh, these English lines would share characters and score far higher (the bug this
    # guards against: an English file scored with the CSDS protocol by default).
    write_lines(tmp_path / "p.txt", ["the cat sat"])
    write_lines(tmp_path / "r.txt", [json.dumps(["a cat sat down", "the dog"])])
    auto = json.loads(run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r.txt"), "--json").stdout)
    en = json.loads(run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r.txt"), "--lang", "en", "--json").stdout)
    assert auto["lang"] == "en" and auto["lang_detected"] and not en["lang_detected"]
    assert auto["best"] == en["best"] and auto["avg"] == en["avg"]
    assert auto["best"]["rougeL"]["f"] == pytest.approx(100 * 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4))
    text = run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r.txt")).stdout
    assert "lang en (detected from" in text
    write_lines(tmp_path / "n.txt", ["123"])
    p = run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "n.txt"), check=False)
    assert p.returncode != 0 and "cannot detect the language" in p.stderr


def test_rouge_rejects_bad_input(tmp_path):
    write_lines(tmp_path / "p.txt", ["a", "b"])
    write_lines(tmp_path / "r.txt", ["a"])
    p = run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r.txt"), check=False)
    assert p.returncode != 0 and "2 lines" in p.stderr
    (tmp_path / "bad.txt").write_bytes(b"ok\n\xff\xfe\n")
    p = run("rouge", str(tmp_path / "bad.txt"), str(tmp_path / "bad.txt"), check=False)
    assert p.returncode != 0 and "bad.txt:2" in p.stderr and "byte offset 0" in p.stderr
    write_lines(tmp_path / "r2.txt", ['["x", 3]', "b"])
    p = run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "r2.txt"), check=False)
    assert p.returncode != 0 and "references[1]" in p.stderr
    p = run("rouge", str(tmp_path / "p.txt"), str(tmp_path / "missing.txt"), check=False)
    assert p.returncode != 0
    (tmp_path / "empty.txt").write_bytes(b"")
    p = run("rouge", str(tmp_path / "empty.txt"), str(tmp_path / "empty.txt"), check=False)
    assert p.returncode != 0 and "no lines to score" in p.stderr, p.stderr


def test_lexicon_expand_on_a_small_corpus(tmp_path):
    lines = []
    for pre in ("我很", "真的", "太", "好"):
        for post in ("要投诉", "了啊", "死了"):
            lines += [f"快递太慢{pre}{w}{post}" for w in ("生气", "恼怒")]
        for post in ("谢谢你", "呀", "极了"):
            lines += [f"礼物收到{pre}{w}{post}" for w in ("开心", "高兴")]
    write_lines(tmp_path / "corpus.txt", lines)
    write_lines(tmp_path / "seeds.tsv", ["生气\tanger", "开心\tjoy"])
    p = run("lexicon", "expand", "--seeds", str(tmp_path / "seeds.tsv"), "--corpus", str(tmp_path / "corpus.txt"),
            "--top", "500", "--window", "3", "--json")
    out = json.loads(p.stdout)
    assert "expand" in p.stderr  # progress goes to stderr
    terms = {c["term"]: c for c in out["candidates"]}
    assert terms["恼怒"]["emotion"] == "anger"
    assert terms["高兴"]["emotion"] == "joy"
    for c in out["candidates"]:
        assert sum(c["memberships"]) == pytest.approx(1.0, abs=1e-5)
    p = run("lexicon", "expand", "--seeds", str(tmp_path / "seeds.tsv"), "--corpus", str(tmp_path / "corpus.txt"),
            "--fuzziness", "1", check=False)
    assert p.returncode != 0 and "fuzziness" in p.stderr
    # Seeds that occur, but fewer than --min-count times, get the remedy in the message.
    p = run("lexicon", "expand", "--seeds", str(tmp_path / "seeds.tsv"), "--corpus", str(tmp_path / "corpus.txt"),
            "--min-count", "1000", check=False)
    assert p.returncode != 0 and "seeds found: 0, missing: 2" in p.stderr and "lower --min-count" in p.stderr, p.stderr
    # A JSON corpus is not line-oriented: its errors name the file alone (no ":0").
    p = run("lexicon", "expand", "--seeds", str(tmp_path / "seeds.tsv"), "--corpus", str(tmp_path / "corpus.txt"),
            "--corpus-format", "stc3", check=False)
    assert p.returncode != 0 and "corpus.txt: stc3: invalid JSON" in p.stderr and ":0:" not in p.stderr, p.stderr
