"""`kessel train` end to end on the bundled sample dialogues (fast): progress lines, the safetensors
model file and its metadata, determinism for a seed, and errors for bad arguments."""
import json
import os
import re
import struct
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES_ZH = SRC / "data" / "samples" / "dialogues_zh.jsonl"
SAMPLES_EN = SRC / "data" / "samples" / "dialogues_en.jsonl"

pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def train(tmp_path, name, *args, data=SAMPLES_ZH):
    out = tmp_path / f"{name}.safetensors"
    proc = subprocess.run(
        [CLI, "train", "--data", str(data), "--dev", str(data), "--out", str(out), "--epochs", "3", *args],
        capture_output=True, text=True, timeout=120)
    return proc, out


def read_safetensors(path):
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    return header, data


@pytest.mark.parametrize("data", [SAMPLES_ZH, SAMPLES_EN], ids=["zh", "en"])
def test_train_writes_a_safetensors_model_with_metadata(tmp_path, data):
    proc, out = train(tmp_path, "m", "--seed", "3", data=data)
    assert proc.returncode == 0, proc.stderr
    # With several members (which may train at the same time) each line names its member.
    lines = [l for l in proc.stderr.splitlines() if re.match(r"(member \d+/\d+ \| )?epoch ", l)]
    assert len(lines) >= 1
    for line in lines:
        assert re.fullmatch(r"(member \d+/\d+ \| )?epoch \d+ \| loss \d+\.\d{4} \| dev ROUGE-L \d+\.\d \| "
                            r"\d+ dlg/s \| ETA \d+:\d\d", line), line
    header, data_bytes = read_safetensors(out)
    meta = header.pop("__metadata__")
    for key in ("format", "hash_buckets", "embed_dim", "hidden", "attn_dim", "max_sentences", "max_chars",
                "f1_stop_chars", "lexicon", "data", "seed", "best_epoch"):
        assert key in meta, key
    assert meta["format"] == "kessel-eaca-1"
    assert meta["lexicon"].startswith("default:")
    assert meta["seed"] == "3"
    assert int(meta["max_chars"]) > 0
    # The expected-F1 stop is chosen after the char budget, on the same dev data: off (0) or a length.
    assert float(meta["f1_stop_chars"]) >= 0
    assert "expected-F1 stop: chose" in proc.stderr
    # Every tensor is F32, its offsets cover its shape, and together they tile the data section.
    spans = []
    for name, t in header.items():
        assert t["dtype"] == "F32"
        count = 1
        for d in t["shape"]:
            count *= d
        begin, end = t["data_offsets"]
        assert end - begin == 4 * count, name
        spans.append((begin, end))
    spans.sort()
    assert spans[0][0] == 0 and spans[-1][1] == len(data_bytes)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert header["emb"]["shape"] == [int(meta["hash_buckets"]), int(meta["embed_dim"])]


def test_training_is_deterministic_for_a_seed(tmp_path):
    p1, a = train(tmp_path, "a", "--seed", "5")
    p2, b = train(tmp_path, "b", "--seed", "5")
    p3, c = train(tmp_path, "c", "--seed", "6")
    assert p1.returncode == 0 and p2.returncode == 0 and p3.returncode == 0
    assert a.read_bytes() == b.read_bytes()
    assert read_safetensors(a)[1] != read_safetensors(c)[1]


def test_cross_validation_reports_held_out_scores(tmp_path):
    report = tmp_path / "cv.json"
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--cv-folds", "2", "--dev-fraction", "0.34",
                           "--epochs", "2", "--report", str(report)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"cv 2 folds \| ROUGE-1 \d+\.\d\d \| ROUGE-2 \d+\.\d\d \| ROUGE-L \d+\.\d\d", proc.stdout)
    cv = json.loads(report.read_text())["cv"]
    assert len(cv["folds"]) == 2
    assert all(0.0 <= f["rougeL"] <= 100.0 and f["dialogues"] == 3 for f in cv["folds"])
    # The interval is over all held-out dialogues pooled, and holds their mean.
    lo, hi = cv["rougeL_interval"]
    assert cv["dialogues"] == 6 and 0.0 <= lo <= hi <= 100.0
    m = re.search(r"ROUGE-L (\d+\.\d\d) \(95% interval \[(\d+\.\d\d), (\d+\.\d\d)\] over the 6 held-out dialogues\)",
                  proc.stdout)
    assert m and float(m.group(2)) == pytest.approx(lo, abs=0.006) and float(m.group(3)) == pytest.approx(hi, abs=0.006)
    # The constraint's cost on the held-out folds: the same models decoded without it.
    assert all(0.0 <= f["rougeL_no_constraint"] <= 100.0 for f in cv["folds"])
    free = sum(f["rougeL_no_constraint"] for f in cv["folds"]) / 2
    assert cv["rougeL_no_constraint"] == pytest.approx(free)
    m = re.search(r"no constraint ROUGE-L (\d+\.\d\d) \(cost (-?\d+\.\d\d)\)", proc.stdout)
    assert m and float(m.group(1)) == pytest.approx(free, abs=0.006)
    assert float(m.group(2)) == pytest.approx(free - cv["rougeL"], abs=0.006)


def test_cross_fitting_trains_one_member_per_fold(tmp_path):
    def run(name, *extra):
        out = tmp_path / f"{name}.safetensors"
        # An ensemble with neither --dev nor --dev-fraction is cross-fitted on --data.
        proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", str(out),
                               "--members", "3", "--epochs", "2", "--seed", "4", *extra],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc, out
    proc, out = run("a")
    # Six dialogues, three folds: each member trains on four and early-stops on the other two.
    assert re.findall(r"member (\d)/3: train (\d+), fold (\d+)", proc.stderr) == [
        ("1", "4", "2"), ("2", "4", "2"), ("3", "4", "2")]
    assert "dev out of fold" in proc.stderr
    header, _ = read_safetensors(out)
    meta = header["__metadata__"]
    assert meta["members"] == "3"
    assert meta["dev"] == "out of fold (cross-fitting)"
    assert len(meta["best_epoch"].split(",")) == 3
    assert "member2.emb" in header and "member3.emb" not in header
    assert run("b")[1].read_bytes() == out.read_bytes()  # deterministic for a seed
    # and for any thread count: members train in parallel, their results are combined in order.
    for threads in ("1", "3"):
        assert run("t" + threads, "--threads", threads)[1].read_bytes() == out.read_bytes(), threads
    assert sorted(re.findall(r"member (\d)/3 \| best epoch", proc.stderr)) == ["1", "2", "3"]
    summary = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(out)],
                             capture_output=True, text=True, timeout=60)
    assert summary.returncode == 0, summary.stderr
    assert len(summary.stdout.splitlines()) == 6


def test_curves_draw_one_line_per_member_and_its_best_epoch(tmp_path):
    out, curves = tmp_path / "m.safetensors", tmp_path / "curves.html"
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", str(out), "--members", "3",
                           "--epochs", "4", "--curves", str(curves)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    page = curves.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert page.count("<svg") == 2  # loss and dev ROUGE-L
    # Per chart: one polyline per member with one point per epoch it trained, one ring per member.
    lines = re.findall(r'<polyline class="member" data-member="(\d)"[^>]*points="([^"]*)"', page)
    assert [m for m, _ in lines] == ["0", "1", "2"] * 2
    trained = [len(p.split()) for _, p in lines[:3]]
    assert all(1 <= n <= 4 for n in trained) and [len(p.split()) for _, p in lines[3:]] == trained
    best = re.findall(r"member (\d): best epoch (\d+)", page)
    assert len(best) == 6
    meta = read_safetensors(out)[0]["__metadata__"]
    assert [e for _, e in best[:3]] == meta["best_epoch"].split(",")
    assert len(re.findall(r"member \d/3: train", proc.stderr)) == 3


def test_curves_need_a_model_and_a_writable_path(tmp_path):
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--cv-folds", "2", "--curves",
                           str(tmp_path / "c.html")], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "--curves needs --out" in proc.stderr
    # Checked before training, so that a typo does not cost a training run; the check leaves no file.
    for option in ("--curves", "--report"):
        proc, out = train(tmp_path, "m", option, str(tmp_path / "no" / "such" / "dir" / "c"))
        assert proc.returncode != 0 and f"train: {option} '" in proc.stderr
        assert "cannot write into the folder" in proc.stderr, proc.stderr
        assert "epoch 1" not in proc.stderr and not out.exists()
    # --out too (issue 23: it was checked only after every epoch).
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", "/nonexistent/m.safetensors"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "train: --out '/nonexistent/m.safetensors': cannot write into" in proc.stderr
    assert "epoch 1" not in proc.stderr, proc.stderr
    proc, out = train(tmp_path, "d", "--report", str(tmp_path))
    assert proc.returncode != 0 and "is a folder" in proc.stderr and "epoch 1" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no probe or temporary left behind


def test_outputs_replace_the_old_files_whole(tmp_path):
    report, curves = tmp_path / "r.json", tmp_path / "c.html"
    for f in (report, curves):
        f.write_text("old")
    proc, out = train(tmp_path, "m", "--report", str(report), "--curves", str(curves))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(report.read_text())["model"]["path"] == str(out)
    assert curves.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert read_safetensors(out)[0]["__metadata__"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.html", "m.safetensors", "r.json"]


@pytest.mark.parametrize("args,message", [
    (["--dev-fraction", "1.5"], "--dev-fraction"),
    (["--epochs", "0"], "epochs"),
    (["--hidden", "0"], "hidden"),
    (["--members", "0"], "--members"),
    (["--members", "7"], "cross-fitting needs 2 to 6 members"),  # six sample dialogues, one fold each
    (["--context", "lstm"], "--context"),
    (["--context", "bilstm", "--no-context"], "--no-context and --context bilstm contradict each other"),
    (["--context", "bilstm", "--hidden", "5"], "needs an even hidden width"),
])
def test_bad_arguments_fail_with_a_message(tmp_path, args, message):
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", str(tmp_path / "x.safetensors"), *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert message in proc.stderr


def test_bilstm_context_encoder_trains_saves_and_summarizes(tmp_path):
    proc, out = train(tmp_path, "bl", "--context", "bilstm", "--members", "2", "--hidden", "8")
    assert proc.returncode == 0, proc.stderr
    header, _ = read_safetensors(out)
    assert header["__metadata__"]["context_bilstm"] == "true"
    names = set(header) - {"__metadata__"}
    assert {"lstm_wih_f", "lstm_whh_b"} <= names and "wq" not in names, sorted(names)
    summary = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(out)],
                             capture_output=True, text=True, timeout=60)
    assert summary.returncode == 0, summary.stderr
    rows = [json.loads(line) for line in summary.stdout.splitlines() if line.strip()]
    assert len(rows) == 6 and all(r["summary"] and r["constraint_satisfied"] for r in rows)


def test_missing_data_file_fails(tmp_path):
    proc = subprocess.run([CLI, "train", "--data", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "nope.jsonl" in proc.stderr


def test_summarize_and_eval_use_trained_models_and_variants(tmp_path):
    """`summarize --model` decodes with the stored budget; `eval --compare-model` adds one row per
    variant (plain attention without the constraint, fuzzy attention with it)."""
    proc, model = train(tmp_path, "m", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    proc_p, plain = train(tmp_path, "plain", "--seed", "2", "--attention", "plain")
    assert proc_p.returncode == 0, proc_p.stderr
    proc_f, fuzzy = train(tmp_path, "fuzzy", "--seed", "2", "--attention", "fuzzy")
    assert proc_f.returncode == 0, proc_f.stderr
    proc_a, selfattn = train(tmp_path, "selfattn", "--seed", "2", "--context", "attention")
    assert proc_a.returncode == 0, proc_a.stderr
    meta_p = read_safetensors(plain)[0]["__metadata__"]
    meta_f = read_safetensors(fuzzy)[0]["__metadata__"]
    assert (meta_p["emotion_terms"], meta_p["normalizer"]) == ("false", "softmax")
    assert (meta_f["emotion_terms"], meta_f["normalizer"]) == ("true", "fuzzy")

    out = tmp_path / "s.jsonl"
    s = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(model), "--output", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert s.returncode == 0, s.stderr
    recs = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    sources = [json.loads(l) for l in SAMPLES_ZH.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in recs] == [d["id"] for d in sources]
    max_sentences = int(read_safetensors(model)[0]["__metadata__"]["max_sentences"])
    for r in recs:
        assert r["constraint_satisfied"]
        # The model's expected-F1 stop sets the length; its sentence cap is a bound that the customer's
        # issue or the agent's outcome may pass by one (docs/eaca.md, eleventh and thirteenth sessions).
        assert 1 <= len(r["sentences"]) <= max_sentences + 1
        assert r["summary"].startswith(("用户:", "客服:")) and r["summary"].endswith(("。", "？"))

    bad = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(model), "--ranker", "lead"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--ranker" in bad.stderr

    e = subprocess.run([CLI, "eval", "--data", str(SAMPLES_ZH), "--model", str(model), "--compare-model", str(plain),
                        "--compare-model", str(fuzzy), "--compare-model", str(selfattn), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert e.returncode == 0, e.stderr
    rows = {r["system"]: r for r in json.loads(e.stdout)["rows"]}
    assert "EACA" in rows and "EACA, no constraint" in rows
    plain_row = rows["EACA plain softmax attention, no constraint (plain.safetensors)"]
    fuzzy_row = rows["EACA, fuzzy m=2 attention (fuzzy.safetensors)"]
    # A model with the other context encoder says so in its row's name.
    assert "EACA, softmax attention, self-attention context (selfattn.safetensors)" in rows, sorted(rows)
    assert fuzzy_row["constraint_satisfied"] == 1.0
    assert 0.0 <= plain_row["rougeL"] <= 100.0
    # Every row is compared with EACA, paired on the same dialogues: the constraint's cost with an interval.
    ev = json.loads(e.stdout)
    assert ev["bootstrap"]["reference"] == "EACA"
    assert "rougeL_minus_reference" not in rows["EACA"]
    cost = rows["EACA, no constraint"]["rougeL_minus_reference"]
    assert cost["diff"] == pytest.approx(rows["EACA, no constraint"]["rougeL"] - rows["EACA"]["rougeL"], abs=1e-9)
    assert cost["interval"][0] - 1e-9 <= cost["diff"] <= cost["interval"][1] + 1e-9
    assert not any("at inference" in name for name in rows)  # trained variants given: no swapped rows

    # Without --compare-model the same networks are also scored with the attention swapped at
    # inference, so the table always has a plain and a fuzzy row.
    e = subprocess.run([CLI, "eval", "--data", str(SAMPLES_ZH), "--model", str(model), "--json", "--bootstrap", "0"],
                       capture_output=True, text=True, timeout=120)
    assert e.returncode == 0, e.stderr
    rows = {r["system"]: r for r in json.loads(e.stdout)["rows"]}
    swapped_plain = rows["EACA networks, plain softmax attention at inference, no constraint"]
    swapped_fuzzy = rows["EACA networks, fuzzy m=2 attention at inference"]
    assert swapped_fuzzy["constraint_satisfied"] == 1.0 and 0.0 <= swapped_plain["rougeL"] <= 100.0


def test_a_model_trained_with_another_lexicon_is_refused(tmp_path):
    proc, model = train(tmp_path, "m", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    lexdir = tmp_path / "lex"
    lexdir.mkdir()
    for name in ("default_zh.tsv", "default_en.tsv", "default_emoji.tsv"):
        (lexdir / name).write_bytes((SRC / "data" / "lexicon" / name).read_bytes())
    with open(lexdir / "default_zh.tsv", "a", encoding="utf-8") as f:
        f.write("新词测试\tanger\t0.5\tneg\n")
    s = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(model),
                        "--lexicon-dir", str(lexdir)], capture_output=True, text=True, timeout=60)
    assert s.returncode != 0
    assert "lexicon" in s.stderr
    # An edited row with the same number of entries is caught too (the identity hashes the content).
    zh = (SRC / "data" / "lexicon" / "default_zh.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(i for i, line in enumerate(zh) if line.startswith("气死我了\t"))
    zh[row] = zh[row].replace("\tanger\t", "\tjoy\t", 1)
    assert "\tjoy\t" in zh[row]
    (lexdir / "default_zh.tsv").write_text("".join(zh), encoding="utf-8")
    s = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_ZH), "--model", str(model),
                        "--lexicon-dir", str(lexdir)], capture_output=True, text=True, timeout=60)
    assert s.returncode != 0 and "trained with lexicon" in s.stderr, s.stderr


def test_divergence_and_too_little_data_are_named(tmp_path):
    # A learning rate that blows the weights up is reported as divergence with its remedy, not as the
    # engine's complaint about a NaN query.
    proc, _ = train(tmp_path, "m", "--lr", "1e30")
    assert proc.returncode != 0
    assert "training diverged" in proc.stderr and "lower --lr" in proc.stderr, proc.stderr
    one = tmp_path / "one.jsonl"
    one.write_text(SAMPLES_ZH.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    proc = subprocess.run([CLI, "train", "--data", str(one), "--out", str(tmp_path / "o.safetensors")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "cross-fitting needs at least 2 training dialogues with a reference, got 1" in proc.stderr, proc.stderr
    # Data without any reference is named as such, with the file's own count, before any split
    # (the dev split used to take the blame, or the count after it).
    noref = tmp_path / "noref.jsonl"
    noref.write_text("".join(json.dumps({"id": f"n{i}", "turns": [{"speaker": "customer", "text": "so angry"},
                                                                   {"speaker": "agent", "text": "sorry"}]}) + "\n"
                             for i in range(10)), encoding="utf-8")
    for extra in ([], ["--members", "1"]):
        proc = subprocess.run([CLI, "train", "--data", str(noref), "--out", str(tmp_path / "n.safetensors"), *extra],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode != 0
        assert "none of the 10 dialogues of --data" in proc.stderr and "reference summary" in proc.stderr, proc.stderr


def test_english_models_render_reported_speech_unless_asked_for_verbatim(tmp_path):
    """An English model stores reported_speech = true: its summaries report the first and second person
    in the third ("I'm missing a wedding" -> "they're missing a wedding"); `--voice verbatim` (train or
    summarize) keeps the sentences as written, and `eval` shows both rows. The unsupervised rankers
    render verbatim, so `--voice` without a model is refused."""
    proc, model = train(tmp_path, "en", "--seed", "2", data=SAMPLES_EN)
    assert proc.returncode == 0, proc.stderr
    assert read_safetensors(model)[0]["__metadata__"]["reported_speech"] == "true"
    proc_v, verbatim_model = train(tmp_path, "en_v", "--seed", "2", "--voice", "verbatim", data=SAMPLES_EN)
    assert proc_v.returncode == 0, proc_v.stderr
    assert read_safetensors(verbatim_model)[0]["__metadata__"]["reported_speech"] == "false"

    def summaries(*args):
        s = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_EN), "--model", str(model), "--max-sentences",
                            "40", "--max-chars", "0", "--no-constraint", *args], capture_output=True, text=True, timeout=60)
        assert s.returncode == 0, s.stderr
        return [json.loads(l) for l in s.stdout.splitlines()]

    reported, verbatim = summaries(), summaries("--voice", "verbatim")
    first_person = re.compile(r"\b(I|I'm|I've|me|my|we|We|we're|We've|us|our)\b")
    sources = [json.loads(l) for l in SAMPLES_EN.read_text(encoding="utf-8").splitlines()]
    changed = 0
    for r, v, d in zip(reported, verbatim, sources):
        # Without a char budget (which counts the rendered text) the same sentences are chosen: the voice
        # is rendering only.
        assert [s["turn"] for s in r["sentences"]] == [s["turn"] for s in v["sentences"]]
        assert r["emotions"] == v["emotions"]
        # Reported speech has no first person, but in a question left in its speaker's words under their
        # label ("Customer: Why was I charged twice?"; docs/eaca.md, "English questions name who asks").
        for sent in r["sentences"]:
            if not (sent["text"].startswith(("Customer: ", "Agent: ")) and sent["text"].rstrip().endswith("?")):
                assert not first_person.search(sent["text"]), r["summary"]
        changed += r["summary"] != v["summary"]
        turns = " ".join(t["text"] for t in d["turns"]).lower()
        for s in v["sentences"]:  # verbatim: each sentence's words (after its label) are in the dialogue
            body = s["text"].split(": ", 1)[1]  # (a capital may start it where a salutation was dropped)
            assert all(word in turns for word in body.lower().split()), body
    assert changed >= len(sources) // 2
    # A report names its speaker at its first reference ("I'm missing a wedding" -> "the customer is
    # missing a wedding"), not "they", whose referent a reader cannot tell.
    assert "the customer is missing a wedding" in " ".join(r["summary"] for r in reported).lower()

    e = subprocess.run([CLI, "eval", "--data", str(SAMPLES_EN), "--model", str(model), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert e.returncode == 0, e.stderr
    rows = {r["system"] for r in json.loads(e.stdout)["rows"]}
    assert {"EACA", "EACA, verbatim (no reported speech)"} <= rows
    e = subprocess.run([CLI, "eval", "--data", str(SAMPLES_EN), "--model", str(verbatim_model), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert "EACA, verbatim (no reported speech)" not in {r["system"] for r in json.loads(e.stdout)["rows"]}

    bad = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_EN), "--voice", "reported"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--voice" in bad.stderr and "--model" in bad.stderr
    bad = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_EN), "--model", str(model), "--voice", "loud"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--voice" in bad.stderr


def test_a_model_used_on_another_language_is_warned_about(tmp_path):
    # The model records the languages it was trained on; a front end that scores other-language
    # dialogues with it says so (they are still scored: a corpus may mix languages).
    proc, model = train(tmp_path, "en", data=SAMPLES_EN)
    assert proc.returncode == 0, proc.stderr
    header, _ = read_safetensors(model)
    assert header["__metadata__"]["languages"] == "en"
    for cmd in (["summarize", "--input", str(SAMPLES_ZH), "--output", str(tmp_path / "o.jsonl")],
                ["analyze", "--data", str(SAMPLES_ZH)],
                ["eval", "--data", str(SAMPLES_ZH), "--bootstrap", "0"]):
        p = subprocess.run([CLI, *cmd, "--model", str(model)], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        assert "warning:" in p.stderr and "trained on en dialogues; 6 of 6 dialogues are zh" in p.stderr, (cmd, p.stderr)
        assert p.stderr.count("warning:") == 1, (cmd, p.stderr)  # once per model file, not per row
    p = subprocess.run([CLI, "summarize", "--input", str(SAMPLES_EN), "--model", str(model), "--output", str(tmp_path / "o.jsonl")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    # Training with a dev set in another language is said too.
    p = subprocess.run([CLI, "train", "--data", str(SAMPLES_EN), "--dev", str(SAMPLES_ZH), "--out", str(tmp_path / "x.safetensors"),
                        "--epochs", "1"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "warning: --data is 0% zh but --dev" in p.stderr and "is 100% zh" in p.stderr, p.stderr
    assert "warning" not in proc.stderr, proc.stderr  # the same-language training above said nothing


def test_analyze_and_eval_report_skipped_records(tmp_path):
    data = tmp_path / "some_bad.jsonl"
    data.write_text(SAMPLES_ZH.read_text(encoding="utf-8") + '{"id": "bad", "turns": []}\n', encoding="utf-8")
    p = subprocess.run([CLI, "analyze", "--data", str(data), "--on-error", "skip", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["skipped"] == 1 and report["input"] == str(data) and "tokens" in report["data"]
    p = subprocess.run([CLI, "analyze", "--data", str(data), "--on-error", "skip"], capture_output=True, text=True, timeout=120)
    assert "1 records skipped" in p.stdout.splitlines()[0], p.stdout
    p = subprocess.run([CLI, "eval", "--data", str(data), "--on-error", "skip", "--bootstrap", "0"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "1 records skipped" in p.stdout.splitlines()[0], p.stdout


def cpu_variants():
    """The SIMD variants this CPU runs, as `kessel --version` lists them."""
    out = subprocess.run([CLI, "--version"], capture_output=True, text=True, timeout=30).stdout
    line = next(l for l in out.splitlines() if l.startswith("available on this CPU:"))
    return [v.strip() for v in line.split(":", 1)[1].split(",")]


def test_every_cpu_variant_trains_the_same_model_for_any_thread_count(tmp_path):
    # Within a variant the model file is the same byte for byte for any thread count (across
    # variants only the last bits may differ: docs/eaca.md).
    for variant in cpu_variants():
        env = dict(os.environ, KESSEL_CPU=variant)
        models = []
        for threads in ("1", "3"):
            out = tmp_path / f"{variant}-{threads}.safetensors"
            proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", str(out), "--members", "3",
                                   "--epochs", "2", "--seed", "4", "--context", "bilstm", "--threads", threads],
                                  capture_output=True, text=True, timeout=120, env=env)
            assert proc.returncode == 0, (variant, proc.stderr)
            models.append(out.read_bytes())
        assert models[0] == models[1], variant
