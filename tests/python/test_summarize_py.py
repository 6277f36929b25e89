"""kessel.Summarizer and kessel.rouge: the same results as the CLI, and clear errors for bad input."""
import json
import os
import subprocess
from pathlib import Path

import pytest

kessel = pytest.importorskip("kessel")

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = {"zh": SRC / "data" / "samples" / "dialogues_zh.jsonl", "en": SRC / "data" / "samples" / "dialogues_en.jsonl"}
needs_cli = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def dialogues(lang):
    return [json.loads(l) for l in SAMPLES[lang].read_text(encoding="utf-8").splitlines() if l.strip()]


def cli_summaries(path, *args):
    proc = subprocess.run([CLI, "summarize", "--input", str(path), *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(l) for l in proc.stdout.splitlines()]


@needs_cli
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("ranker,args", [("centrality", []), ("lead", ["--ranker", "lead"])])
def test_matches_the_cli_record_for_record(lang, ranker, args):
    s = kessel.Summarizer(ranker=ranker)
    expected = cli_summaries(SAMPLES[lang], *args)
    got = [s.summarize(d) for d in dialogues(lang)]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g["summary"] == e["summary"]
        assert [x["turn"] for x in g["sentences"]] == [x["turn"] for x in e["sentences"]]
        assert [x["text"] for x in g["sentences"]] == [x["text"] for x in e["sentences"]]
        assert g["emotions"] == e["emotions"]
        assert g["constraint_satisfied"] == e["constraint_satisfied"]


@needs_cli
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_explain_gives_the_cli_attention_map(lang):
    s = kessel.Summarizer()
    expected = cli_summaries(SAMPLES[lang], "--explain")
    for d, e in zip(dialogues(lang), expected):
        got = s.summarize(d, explain=True)
        assert got["attention"]["queries"] == e["attention"]["queries"]
        assert got["attention"]["units"] == e["attention"]["units"]
        assert got["attention"]["weights"] == e["attention"]["weights"]  # the same JSON numbers
        rows = got["attention"]["weights"]
        assert len(rows) == len(got["attention"]["queries"]) > 0
        assert all(sum(r) == pytest.approx(1.0, abs=1e-4) for r in rows)  # each query's weights sum to 1
        assert "attention" not in s.summarize(d)  # only when asked
    lead = kessel.Summarizer(ranker="lead").summarize(dialogues(lang)[0], explain=True)
    assert "attention" not in lead and "no attention map" in lead["attention_omitted"]


def trained_model(tmp_path, lang):
    """A small model trained by the CLI on the bundled samples of `lang` (two epochs)."""
    model = tmp_path / f"{lang}.safetensors"
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES[lang]), "--dev", str(SAMPLES[lang]), "--out", str(model),
                           "--epochs", "2"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return model


@needs_cli
def test_a_trained_model_gives_the_cli_result(tmp_path):
    model = trained_model(tmp_path, "zh")
    s = kessel.Summarizer(model=str(model))
    assert s.scorer == "eaca"
    expected = cli_summaries(SAMPLES["zh"], "--model", str(model))
    assert [s.summarize(d)["summary"] for d in dialogues("zh")] == [e["summary"] for e in expected]
    with pytest.raises(ValueError, match="ranker"):
        kessel.Summarizer(model=str(model), ranker="lead")


@needs_cli
def test_max_sentences_replaces_a_models_character_budget(tmp_path):
    # The model stores a character budget; asking for N sentences must give N (where the model
    # offers N units: with content, not repeated, not cut to one character), not what the stored
    # budget leaves room for.
    model = trained_model(tmp_path, "zh")
    stored = kessel.Summarizer(model=str(model))
    for d in dialogues("zh"):
        units = len(kessel.Summarizer(model=str(model), max_sentences=1000).summarize(d)["sentences"])
        assert units >= 2
        n = min(8, units)
        got = kessel.Summarizer(model=str(model), max_sentences=8).summarize(d)
        assert len(got["sentences"]) == n, (d["id"], units)
        assert len(stored.summarize(d)["sentences"]) <= n
    cli = cli_summaries(SAMPLES["zh"], "--model", str(model), "--max-sentences", "8")
    assert [c["summary"] for c in cli] == [kessel.Summarizer(model=str(model), max_sentences=8).summarize(d)["summary"]
                                           for d in dialogues("zh")]


@needs_cli
def test_voice_overrides_an_english_models_rendering(tmp_path):
    model = trained_model(tmp_path, "en")
    for voice in ("reported", "verbatim"):
        s = kessel.Summarizer(model=str(model), voice=voice, max_chars=0)
        expected = cli_summaries(SAMPLES["en"], "--model", str(model), "--voice", voice, "--max-chars", "0")
        assert [s.summarize(d)["summary"] for d in dialogues("en")] == [e["summary"] for e in expected]
    reported = kessel.Summarizer(model=str(model), max_chars=0)  # the model's own choice: reported
    verbatim = kessel.Summarizer(model=str(model), voice="verbatim", max_chars=0)
    d = dialogues("en")[0]
    assert reported.summarize(d)["summary"] != verbatim.summarize(d)["summary"]
    with pytest.raises(ValueError, match="voice"):
        kessel.Summarizer(model=str(model), voice="loud")


@needs_cli
def test_emotion_span_matches_the_cli(tmp_path):
    d = {"id": "c", "turns": [
        {"speaker": "customer", "text": "Hello, I want a refund for order 12345 please, the refund for order 12345."},
        {"speaker": "agent", "text": "Your refund for order 12345 has been processed and will reach your card soon."},
        {"speaker": "customer", "text": "Well, I am furious, this took three weeks and nobody answered my emails, my calls or my letters about it!"}]}
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(d) + "\n", encoding="utf-8")
    for span in ("clause", "sentence"):
        s = kessel.Summarizer(ranker="lead", max_sentences=1, emotion_span=span)
        (expected,) = cli_summaries(path, "--ranker", "lead", "--max-sentences", "1", "--emotion-span", span)
        assert s.summarize(d)["summary"] == expected["summary"]
    assert kessel.Summarizer(ranker="lead", max_sentences=1, emotion_span="clause").summarize(d)["summary"] == \
        "Customer: I am furious."
    # Without a model the default is the whole sentence.
    assert kessel.Summarizer(ranker="lead", max_sentences=1).summarize(d)["summary"] == "Customer: " + d["turns"][2]["text"]
    with pytest.raises(ValueError, match="emotion span"):
        kessel.Summarizer(emotion_span="word")


@needs_cli
def test_attention_kernel_matches_the_cli_and_says_which_ran(tmp_path):
    model = trained_model(tmp_path, "zh")
    for kernel in ("reference", "fused", "chunk_bridge"):
        s = kessel.Summarizer(model=str(model), attention_kernel=kernel)
        expected = cli_summaries(SAMPLES["zh"], "--model", str(model), "--attention-kernel", kernel, "--explain")
        got = [s.summarize(d, explain=True) for d in dialogues("zh")]
        assert [g["summary"] for g in got] == [e["summary"] for e in expected]
        assert {g["attention_kernel"] for g in got} == {e["attention_kernel"] for e in expected}
        assert all(g["attention_kernel"].startswith(kernel) and "forced" in g["attention_kernel"] for g in got)
    # auto: the sample dialogues are short, under the measured crossover, so the fused kernel runs.
    auto = kessel.Summarizer(model=str(model)).summarize(dialogues("zh")[0], explain=True)
    assert auto["attention_kernel"].startswith("fused") and "forced" not in auto["attention_kernel"]
    with pytest.raises(ValueError, match="attention_kernel='fused' needs a model"):
        kessel.Summarizer(attention_kernel="fused")
    with pytest.raises(ValueError, match="flash"):
        kessel.Summarizer(model=str(model), attention_kernel="flash")


def test_accepts_json_strings_and_the_other_formats():
    s = kessel.Summarizer()
    d = dialogues("zh")[0]
    assert s.summarize(json.dumps(d, ensure_ascii=False)) == s.summarize(d)
    csds = {"Dialogue": [{"speaker": "Q", "role": "用户", "utterance": "我的订单怎么还没发货，气死我了", "truncated": False},
                         {"speaker": "A", "role": "客服", "utterance": "非常抱歉，马上为您催促仓库发货。", "truncated": False}],
            "TopicSumm": []}
    out = s.summarize(csds)
    assert out["constraint_satisfied"]
    assert any(e["term"] == "气死我了" and e["in_summary"] for e in out["emotions"])


@pytest.mark.parametrize("dialogue,message", [
    ({"id": "x", "turns": []}, "empty"),
    ({"id": "x", "turns": [{"speaker": "robot", "text": "hi"}]}, "speaker"),
    ({"id": "x", "turns": [{"speaker": "customer"}]}, "text"),
    ({"id": "x"}, "turns"),
    ("not json", "<dialogue>"),
    # A lone surrogate has no UTF-8 form: the reader names the field (was a pybind11 cast error).
    ({"id": "x", "turns": [{"speaker": "customer", "text": "hi \ud800 there"}]}, r"turns\[0\]\.text: invalid UTF-8"),
    ('{"id": "x", "turns": [{"speaker": "customer", "text": "hi \ud800"}]}', r"turns\[0\]\.text: invalid UTF-8"),
])
def test_bad_dialogues_are_value_errors_naming_the_field(dialogue, message):
    with pytest.raises(ValueError, match=message):
        kessel.Summarizer().summarize(dialogue)


@pytest.mark.parametrize("kwargs,message", [
    ({"ranker": "magic"}, "ranker"),
    ({"attention": "cubic"}, "cubic"),
    ({"max_sentences": 0}, "max_sentences"),
    ({"max_chars": -1}, "max_chars"),
    ({"redundancy": 1.5}, "redundancy"),
    ({"voice": "reported"}, "voice needs a model"),
])
def test_bad_options_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        kessel.Summarizer(**kwargs)


def test_missing_files_are_os_errors(tmp_path):
    with pytest.raises(OSError, match="lexicon_dir"):
        kessel.Summarizer(lexicon_dir=str(tmp_path))
    with pytest.raises(OSError):
        kessel.Summarizer(model=str(tmp_path / "nope.safetensors"))


def test_options_shape_the_summary():
    d = dialogues("zh")[0]
    one = kessel.Summarizer(max_sentences=1, constraint=False).summarize(d)
    assert len(one["sentences"]) == 1
    assert kessel.Summarizer(max_sentences=2).max_sentences == 2


def test_rouge_matches_hand_computed_values():
    # zh: characters; 用户:查询。 (6) vs 用户询问。 (5): 用 户 询 。 hit, so P = 4/6 and R = 4/5.
    r = kessel.rouge("用户:查询。", "用户询问。")
    assert r["best"]["rouge1"]["p"] == pytest.approx(400.0 / 6.0)
    assert r["best"]["rouge1"]["r"] == pytest.approx(80.0)
    # en: best and average over two references.
    r = kessel.rouge("the cat", ["a cat", "the dog"], lang="en")
    assert r["best"]["rouge1"]["f"] == pytest.approx(50.0)
    assert r["avg"]["rouge1"]["f"] == pytest.approx(50.0)
    with pytest.raises(ValueError, match="references"):
        kessel.rouge("x", [])
    with pytest.raises(ValueError, match="lang"):
        kessel.rouge("x", "y", lang="fr")
    # The default, lang="auto", follows the references: English words, Chinese characters.
    assert kessel.rouge("the cat", ["a cat", "the dog"]) == kessel.rouge("the cat", ["a cat", "the dog"], lang="en")
    assert kessel.rouge("用户:查询。", "用户询问。") == kessel.rouge("用户:查询。", "用户询问。", lang="zh")
    # zh_split="period-eos": each 。 carries the CSDS script's eos token, so P = 5/7 and R = 5/6.
    r = kessel.rouge("用户:查询。", "用户询问。", zh_split="period-eos")
    assert r["best"]["rouge1"]["p"] == pytest.approx(500.0 / 7.0)
    assert r["best"]["rouge1"]["r"] == pytest.approx(500.0 / 6.0)
    with pytest.raises(ValueError, match="zh_split"):
        kessel.rouge("x", "y", lang="zh", zh_split="eos")
