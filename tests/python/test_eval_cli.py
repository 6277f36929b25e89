"""`kessel eval`, `kessel analyze` and `kessel stress` from the command line: the bundled samples, the
faithfulness columns and emotion labels, bootstrap intervals, models, and (when present) the real CSDS /
TweetSumm validation splits."""
import json
import os
import re
import time

import pytest

from summarize_cli_harness import SAMPLES, DATA, run, fails, records, summarize, read_jsonl, write_jsonl, dialogue, GOOD

# ---- eval and analyze -----------------------------------------------------------------------------

BASELINE_ROWS = ("Lead-4", "Longest-4", "LexRank-4")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_eval_samples(lang):
    ev = json.loads(run("eval", "--data", SAMPLES[lang], "--json").stdout)
    rows = {r["system"]: r for r in ev["rows"]}
    for name in BASELINE_ROWS:
        assert name in rows
    centrality = [n for n in rows if n.startswith("centrality")]
    assert len(centrality) >= 3
    n = len(read_jsonl(SAMPLES[lang]))
    for r in rows.values():
        assert r["dialogues"] == n
        for k in ("rouge1", "rouge2", "rougeL", "rouge1_avg", "rouge2_avg", "rougeL_avg"):
            assert 0 <= r[k] <= 100, (r["system"], k, r[k])
        assert r["rouge1"] > 0
        assert 0 <= r["constraint_satisfied"] <= 1 and 0 <= r["emotion_recall"] <= 1
        assert r["latency_ms"]["p50"] <= r["latency_ms"]["p95"] <= r["latency_ms"]["p99"]
    for name in rows:
        if name.startswith("centrality") and "no constraint" not in name:
            assert rows[name]["constraint_satisfied"] == 1.0 and rows[name]["emotion_recall"] == 1.0
    table = run("eval", "--data", SAMPLES[lang]).stdout
    assert f"{n} dialogues" in table
    for name in BASELINE_ROWS:
        assert name in table


def test_eval_faithfulness_and_emotion_labels(tmp_path):
    kinds = ("negation_lost", "question_asserted", "word_cut", "cross_turn_merge")
    ev = json.loads(run("eval", "--data", SAMPLES["zh"], "--json", "--bootstrap", "0").stdout)
    assert ev["word_boundaries"].startswith(("jieba:", "builtin")) and "emotion_detection" not in ev
    for r in ev["rows"]:
        f = r["faithfulness"]
        assert f["sentences"] > 0 and all(f[k] >= 0 for k in kinds), r["system"]
        assert "strongest_kept" not in r
    # zh-001's first turn: 在吗？我的快递三天了还没到，气死我了😡 (气死我了 at code points 14..18).
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"id": "zh-001", "expressions": [{"turn": 0, "start": 14, "end": 18, "emotion": "anger", '
                      '"intensity": 3, "strongest": true}]}\n{"id": "zh-002", "expressions": []}\n'
                      '{"id": "elsewhere", "expressions": []}\n', encoding="utf-8")
    p = run("eval", "--data", SAMPLES["zh"], "--json", "--bootstrap", "0", "--emotion-labels", labels)
    assert "1 of 3 labelled dialogues are not in" in p.stderr
    ev = json.loads(p.stdout)
    det = ev["emotion_detection"]
    assert det["dialogues"] == 2 and det["labelled"] == 1
    assert 0 <= det["precision"] <= 1 and 0 <= det["recall"] <= 1
    for r in ev["rows"]:
        assert r["strongest_kept"]["labelled_with_emotion"] == 1
        assert r["strongest_kept"]["share"] in (0.0, 1.0)
    table = run("eval", "--data", SAMPLES["zh"], "--bootstrap", "0", "--emotion-labels", labels).stdout
    assert "merge strong" in table and "word cut" in table and "needs the Chinese word segmenter" not in table
    labels.write_text('{"id": "zh-001", "expressions": [{"turn": 0, "start": 14, "end": 18, "emotion": "anger", '
                      '"intensity": 5, "strongest": true}]}\n', encoding="utf-8")
    err = fails("eval", "--data", SAMPLES["zh"], "--emotion-labels", labels)
    assert "labels.jsonl:1: expressions[0].intensity: must be 1, 2 or 3, got 5" in err, err


def test_eval_bootstrap_intervals():
    ev = json.loads(run("eval", "--data", SAMPLES["en"], "--json").stdout)
    boot = ev["bootstrap"]
    assert boot == {"resamples": 1000, "level": 0.95, "seed": 1, "reference": "centrality softmax (unsupervised mode)"}
    rows = {r["system"]: r for r in ev["rows"]}
    ref = rows[boot["reference"]]
    for name, r in rows.items():
        lo, hi = r["rougeL_interval"]
        assert lo - 1e-9 <= r["rougeL"] <= hi + 1e-9, name
        if name == boot["reference"]:
            assert "rougeL_minus_reference" not in r
            continue
        d = r["rougeL_minus_reference"]
        assert d["diff"] == pytest.approx(r["rougeL"] - ref["rougeL"], abs=1e-9)
        assert d["interval"][0] - 1e-9 <= d["diff"] <= d["interval"][1] + 1e-9, name
    # The same run twice gives the same intervals (fixed seed); --bootstrap 0 leaves them out.
    again = json.loads(run("eval", "--data", SAMPLES["en"], "--json").stdout)
    assert [r["rougeL_interval"] for r in again["rows"]] == [r["rougeL_interval"] for r in ev["rows"]]
    off = json.loads(run("eval", "--data", SAMPLES["en"], "--json", "--bootstrap", "0").stdout)
    assert "bootstrap" not in off and all("rougeL_interval" not in r for r in off["rows"])
    table = run("eval", "--data", SAMPLES["en"], "--bootstrap", "200").stdout
    assert "95% bootstrap intervals (200 resamples of the 6 dialogues)" in table
    assert re.search(r"centrality softmax \(unsupervised mode\)\s+\d+\.\d\d\s+\[\s*\d+\.\d\d,\s+\d+\.\d\d\] \|\s+\(ref\)", table)
    assert "bootstrap" in fails("eval", "--data", SAMPLES["en"], "--bootstrap", "-1")


def test_eval_without_references(tmp_path):
    path = write_jsonl(tmp_path / "noref.jsonl", [GOOD])
    err = fails("eval", "--data", path)
    assert "reference" in err, err


def test_eval_reports_dialogues_without_references(tmp_path):
    sources = read_jsonl(SAMPLES["en"])[:2] + [GOOD]
    path = write_jsonl(tmp_path / "mix.jsonl", sources)
    p = run("eval", "--data", path, "--json")
    ev = json.loads(p.stdout)
    assert ev["read"] == 3 and ev["without_reference"] == 1
    assert all(r["dialogues"] == 2 for r in ev["rows"])
    assert "1 of 3 dialogues have no reference summary" in p.stderr
    assert "1 more without a reference, not scored" in run("eval", "--data", path).stdout


def test_analyze(tmp_path):
    a = json.loads(run("analyze", "--data", SAMPLES["zh"], "--json").stdout)
    assert {"compute", "data", "cognitive", "physical"} <= set(a)
    assert a["dialogues"] == len(read_jsonl(SAMPLES["zh"]))
    assert a["compute"]["stages"] and all(s["total_ms"] >= 0 for s in a["compute"]["stages"])
    assert 0 < a["data"]["token_entropy_bits"]
    assert a["cognitive"]["constraint_satisfied"] == 1.0
    timed = [d for d in read_jsonl(SAMPLES["zh"]) if all("time" in t for t in d["turns"])]
    assert a["physical"]["dialogues_with_times"] == pytest.approx(len(timed) / a["dialogues"])
    text = run("analyze", "--data", SAMPLES["en"]).stdout
    for heading in ("COMPUTE", "DATA", "COGNITIVE", "PHYSICAL"):
        assert heading in text


def test_analyze_with_a_model_reports_each_layer(tmp_path):
    model = tmp_path / "m.safetensors"
    run("train", "--data", SAMPLES["zh"], "--out", model, "--members", "2", "--epochs", "2")
    a = json.loads(run("analyze", "--data", SAMPLES["zh"], "--model", model, "--json").stdout)
    assert a["compute"]["scorer"] == "eaca"
    stages = {s["stage"]: s for s in a["compute"]["stages"]}
    layers = ["score: features: n-gram hashing, dense, wheel, time", "score: embed + fuse -> h0",
              "score: context encoder (self-attention or BiLSTM)", "score: EACA customer attention (engine)",
              "score: heads: salience, emotion source, has-emotion",
              "score: rendering: token deletion (zh) or addressing and reported speech (en)"]
    assert [s["stage"] for s in a["compute"]["stages"]][1:7] == layers
    assert all(stages[name]["gflop"] > 0 for name in layers[1:5])
    # The context and EACA layers' FLOPs, recomputed from the shapes kessel summarize --explain reports
    # ([Q, U] per dialogue) and the model's widths, summed over the members.
    header_len = int.from_bytes(model.read_bytes()[:8], "little")
    meta = json.loads(model.read_bytes()[8:8 + header_len])["__metadata__"]
    D, A, K = int(meta["hidden"]), int(meta["attn_dim"]), int(meta["members"])
    context = emotion = 0.0
    for r in records(run("summarize", "--input", SAMPLES["zh"], "--model", model, "--explain").stdout):
        assert "attention" in r, r["id"]  # every sample dialogue has customer units
        U, Q = len(r["attention"]["units"]), len(r["attention"]["queries"])
        if meta["context_bilstm"] == "true":  # two directions of H = D/2: input and recurrent products
            H = D // 2
            context += K * 2 * 2 * U * 4 * H * (D + H)
        else:
            context += K * (2 * U * D * (2 * A + D) + 2 * U * U * (A + D))
        emotion += K * (2 * U * D * 2 * A + 2 * Q * U * (A + 2 + D))
    assert stages["score: context encoder (self-attention or BiLSTM)"]["gflop"] == pytest.approx(context * 1e-9, rel=1e-9)
    assert stages["score: EACA customer attention (engine)"]["gflop"] == pytest.approx(emotion * 1e-9, rel=1e-9)
    # The constraints listed are the ones in force: the model's budget, and not the constraint when it is off.
    enforced = a["cognitive"]["enforced"]
    assert enforced[0].startswith("emotion constraint") and any("sentence budget" in e for e in enforced)
    off = json.loads(run("analyze", "--data", SAMPLES["zh"], "--model", model, "--no-constraint", "--json").stdout)
    assert not any(e.startswith("emotion constraint") for e in off["cognitive"]["enforced"])
    assert "COMPUTE (eaca, one thread)" in run("analyze", "--data", SAMPLES["zh"], "--model", model).stdout
    err = fails("analyze", "--data", SAMPLES["zh"], "--model", model, "--ranker", "lead")
    assert "--ranker" in err, err


# ---- real data ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel,n", [("csds/val.jsonl", 777), ("tweetsumm/valid.jsonl", 110)])
def test_eval_real_data(rel, n):
    path = os.path.join(DATA, rel)
    if not os.path.exists(path):
        pytest.skip(f"{path} absent (real data lives in ../shared/data or $KESSEL_DATA)")
    start = time.perf_counter()
    ev = json.loads(run("eval", "--data", path, "--json", timeout=300).stdout)
    print(f"\neval {rel}: {time.perf_counter() - start:.1f} s")
    assert ev["skipped"] == 0 and ev["read"] == n and ev["without_reference"] == 0
    for r in ev["rows"]:
        assert r["dialogues"] == n
        assert 0 < r["rougeL"] <= 100


def test_stress_unsupervised_on_the_samples():
    r = json.loads(run("stress", "--lengths", "8,32,64", "--densities", "0,0.5,1", "--min-seconds", "0",
                       "--json").stdout)
    assert r["passed"] is True and r["scorer"].startswith("Attention centrality")
    assert r["data"].endswith("dialogues_zh.jsonl")
    rows = r["length"]["rows"]
    assert [row["units"] >= row["requested"] for row in rows] == [True] * 3
    assert [row["repeated"] for row in rows] == [False, False, True]  # the six samples hold ~47 units
    assert all(0 < row["entropy_norm"] <= 1 and row["problems"] == "" for row in rows)
    assert r["length"]["entropy_measured"] and r["length"]["entropy_units"] == [rows[0]["units"], rows[1]["units"]]
    assert len(r["modality"]) == 8 and all(c["ok"] for c in r["modality"])
    density = r["density"]["rows"]
    assert r["density"]["ok"] and all(d["satisfied"] == 1.0 for d in density)
    assert density[0]["density"] <= density[1]["density"] <= density[2]["density"] == 1.0
    assert r["kernels"]["ok"] and all(k["threads_identical"] for k in r["kernels"]["rows"])
    text = run("stress", "--lang", "en", "--lengths", "8", "--densities", "1", "--min-seconds", "0").stdout
    for heading in ("1. LENGTH", "2. MODALITY", "3. EMOTION DENSITY", "4. KERNELS", "all stress tests passed"):
        assert heading in text
    assert "dialogues_en.jsonl" in text


def test_stress_with_a_model_and_its_failures(tmp_path):
    model = tmp_path / "m.safetensors"
    run("train", "--data", SAMPLES["en"], "--out", model, "--members", "2", "--epochs", "2")
    r = json.loads(run("stress", "--model", model, "--lengths", "8,24", "--densities", "0,1", "--min-seconds", "0",
                       "--json").stdout)
    assert r["scorer"] == "eaca" and r["data"].endswith("dialogues_en.jsonl")  # the model's language
    assert all(row["queries"] > 0 and 0 < row["entropy_norm"] <= 1 for row in r["length"]["rows"])
    assert all(c["ok"] for c in r["modality"]), r["modality"]
    # A zero tolerance fails the entropy test: exit code 1, the report says which.
    p = run("stress", "--lengths", "8,32", "--densities", "1", "--min-seconds", "0", "--entropy-tolerance", "0",
            check=False)
    assert p.returncode == 1 and "FAIL normalized entropy" in p.stdout and "some stress tests FAILED" in p.stdout
    assert "--densities" in fails("stress", "--densities", "1.5")
    assert "--lengths" in fails("stress", "--lengths", "0")
    assert "--lang" in fails("stress", "--lang", "en", "--data", SAMPLES["zh"])
    assert "cannot open" in fails("stress", "--data", tmp_path / "missing.jsonl")
