"""kessel.Summarizer.summarize_many and kessel.train_eaca: the same records as summarize() for any thread
count, per-item errors naming the index and field, the GIL released, and a model trained from Python
that is the CLI's file byte for byte and loads in kessel.Summarizer."""
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

kessel = pytest.importorskip("kessel")

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = {"zh": SRC / "data" / "samples" / "dialogues_zh.jsonl", "en": SRC / "data" / "samples" / "dialogues_en.jsonl"}
needs_cli = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def lines(lang):
    return [l for l in SAMPLES[lang].read_text(encoding="utf-8").splitlines() if l.strip()]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("kwargs", [{}, {"ranker": "lexrank"}, {"attention": "fuzzy"}])
def test_records_equal_summarize_for_every_thread_count(lang, kwargs):
    s = kessel.Summarizer(**kwargs)
    texts = lines(lang) * 3
    # dicts and JSON strings mixed: both are what summarize() takes
    items = [json.loads(t) if i % 2 else t for i, t in enumerate(texts)]
    expected = [s.summarize(t) for t in texts]
    for threads in (1, 2, 3, 0):
        assert s.summarize_many(items, threads=threads) == expected
    assert s.summarize_many(iter(items), threads=2, explain=True) == [s.summarize(t, explain=True) for t in texts]
    assert s.summarize_many([]) == []


BAD = {"id": "x", "turns": [{"speaker": "customer", "text": "hi \ud800 there"}]}


def test_the_lowest_bad_index_raises_naming_index_and_field():
    s = kessel.Summarizer()
    good = lines("en")
    items = good[:2] + [BAD, "not json", {"id": "y"}] + good[2:]
    with pytest.raises(ValueError, match=r"^Summarizer\.summarize_many: dialogues\[2\]:1: turns\[0\]\.text: invalid UTF-8"):
        s.summarize_many(items, threads=2)
    with pytest.raises(ValueError, match=r"dialogues\[1\].*turns"):
        s.summarize_many([good[0], {"id": "y"}, "not json"], threads=2)
    with pytest.raises(ValueError, match=r"dialogues\[0\] is neither a JSON string nor JSON-serializable"):
        s.summarize_many([{"id": object()}], threads=1)
    # The same type and field as summarize() raises for that dialogue.
    with pytest.raises(kessel.ParseError):
        s.summarize_many([BAD])


def test_skip_gives_none_for_bad_dialogues_only():
    s = kessel.Summarizer()
    good = lines("zh")
    items = [good[0], BAD, "not json", {"id": object()}, good[1]]
    out = s.summarize_many(items, threads=2, on_error="skip")
    assert out[1:4] == [None, None, None]
    assert out[0] == s.summarize(good[0]) and out[4] == s.summarize(good[1])


@pytest.mark.parametrize("kwargs,message", [({"on_error": "ignore"}, "on_error"), ({"threads": -1}, "threads")])
def test_bad_options_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        kessel.Summarizer().summarize_many(lines("en"), **kwargs)


def test_the_gil_is_released_while_summarizing():
    # The main thread keeps running Python while another thread is inside summarize_many. The window
    # starts when summarize_many has taken the last input (it converts the inputs holding the GIL) and
    # ends when it returns; holding the GIL throughout, the main thread could run in at most one
    # switch interval (5 ms) of it.
    s = kessel.Summarizer()
    texts = lines("zh") * 200
    marks = {}

    def inputs():
        yield from texts
        marks["converted"] = time.perf_counter()

    def work():
        s.summarize_many(inputs(), threads=1)
        marks["returned"] = time.perf_counter()

    t = threading.Thread(target=work)
    seen = []
    t.start()
    while t.is_alive():
        seen.append(time.perf_counter())
    t.join()
    window = [x for x in seen if marks["converted"] < x < marks["returned"]]
    length = marks["returned"] - marks["converted"]
    assert length > 0.05, "too little work to observe"
    assert window and window[-1] - window[0] > 0.25 * length


# ---- train_eaca ----------------------------------------------------------------------------------------

@needs_cli
def test_train_eaca_writes_the_cli_model_byte_for_byte(tmp_path):
    data = str(SAMPLES["zh"])
    cli_out = tmp_path / "cli.safetensors"
    proc = subprocess.run([CLI, "train", "--data", data, "--dev", data, "--out", str(cli_out), "--epochs", "1",
                           "--members", "1", "--seed", "3", "--hidden", "16"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "py.safetensors"
    r = kessel.train_eaca(data, out=str(out), dev=data, epochs=1, members=1, seed=3, hidden=16, threads=1)
    assert r["path"] == str(out) and r["members"] == 1 and r["best_epoch"] == 1
    assert len(r["epochs"]) == 1 and r["epochs"][0]["epoch"] == 1 and r["epochs"][0]["loss"] > 0
    assert out.read_bytes() == cli_out.read_bytes()
    s = kessel.Summarizer(model=str(out))
    assert s.scorer == "eaca"
    assert s.summarize_many(lines("zh"), threads=2) == [s.summarize(t) for t in lines("zh")]


def test_train_eaca_from_a_list_with_a_seeded_split_loads_and_summarizes(tmp_path):
    out = tmp_path / "m.safetensors"
    dialogues = [json.loads(t) for t in lines("en")]
    r = kessel.train_eaca(dialogues, out=out, dev_fraction=0.34, epochs=1, members=1, hidden=8, context="attention",
                          voice="verbatim")
    assert out.exists() and r["path"] == str(out)
    s = kessel.Summarizer(model=str(out))
    assert all(rec["summary"] for rec in s.summarize_many(dialogues))
    # An ensemble of 2 with no dev is cross-fitted (one member per fold); threads do not change the file.
    a, b = tmp_path / "a.safetensors", tmp_path / "b.safetensors"
    kessel.train_eaca(lines("en"), out=a, epochs=1, members=2, hidden=8, threads=1)
    r = kessel.train_eaca(lines("en"), out=b, epochs=1, members=2, hidden=8, threads=2)
    assert r["members"] == 2 and len(r["member_best_epochs"]) == 2
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("kwargs,error,message", [
    ({"dev_fraction": 1.5}, ValueError, "dev_fraction must be in"),
    ({"dev_fraction": 0.01}, ValueError, "empty train or dev split"),
    ({"epochs": 0}, ValueError, "epochs"),
    ({"context": "lstm"}, ValueError, "context"),
    ({"attention": "cubic"}, ValueError, "cubic"),
    ({"voice": "loud"}, ValueError, "voice"),
    ({"members": 0}, ValueError, "members"),
    ({"format": "xml"}, ValueError, "xml"),
    ({"data": [{"id": "x", "turns": [{"speaker": "robot", "text": "hi"}]}]}, ValueError, r"data\[0\].*speaker"),
    ({"data": "/nonexistent/d.jsonl"}, OSError, "d.jsonl"),
    ({"out": "/nonexistent/dir/m.safetensors"}, OSError, "not a directory"),
])
def test_train_eaca_bad_arguments(tmp_path, kwargs, error, message):
    args = {"data": str(SAMPLES["zh"]), "out": str(tmp_path / "m.safetensors"), "epochs": 1, "members": 1, "hidden": 8}
    args.update(kwargs)
    data = args.pop("data")
    with pytest.raises(error, match=message):
        kessel.train_eaca(data, **args)


def test_kv_int8_summarizes_as_float32_and_needs_a_model(tmp_path):
    # `kessel summarize --kv int8` from Python: int8 K/V in the model's attention layers while scoring
    # (a self-attention context, so both layers are on the engine).
    out = tmp_path / "m.safetensors"
    kessel.train_eaca(lines("zh"), out=out, epochs=1, members=1, hidden=8, context="attention", threads=1)
    texts = lines("zh") * 2
    as_float = kessel.Summarizer(model=str(out)).summarize_many(texts)
    as_int8 = kessel.Summarizer(model=str(out), kv="int8").summarize_many(texts)
    assert [r["summary"] for r in as_int8] == [r["summary"] for r in as_float]
    # ... and it did run on int8: the explained weights are the quantized keys' (close, not equal).
    w_float = np.array(kessel.Summarizer(model=str(out)).summarize(texts[0], explain=True)["attention"]["weights"])
    w_int8 = np.array(kessel.Summarizer(model=str(out), kv="int8").summarize(texts[0], explain=True)["attention"]["weights"])
    assert not np.array_equal(w_int8, w_float) and np.abs(w_int8 - w_float).max() < 0.05
    with pytest.raises(ValueError, match="kv='int8' needs a model"):
        kessel.Summarizer(kv="int8")
    with pytest.raises(ValueError, match="bogus"):
        kessel.Summarizer(model=str(out), kv="bogus")
