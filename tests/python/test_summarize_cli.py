"""End-to-end and robustness tests of `kessel summarize` (issue 4): the bundled samples, generated inputs
in every format, bad input, extreme dialogues, and outputs that are whole or absent. `kessel eval`,
`analyze` and `stress` are in test_eval_cli.py."""
import json
import os
import subprocess
import time

import pytest

from summarize_cli_harness import CLI, SAMPLES, run, fails, records, summarize, read_jsonl, write_jsonl, dialogue, core, check_record, GOOD

# ---- summarize on the bundled samples -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_summarize_samples_schema(lang):
    sources = read_jsonl(SAMPLES[lang])
    recs = summarize(SAMPLES[lang])
    assert [r["id"] for r in recs] == [s["id"] for s in sources], "one record per dialogue, in order"
    for rec, src in zip(recs, sources):
        check_record(rec, src, lang, max_sentences=4)
    assert sum(len(r["emotions"]) for r in recs) > 0, "the samples are written to carry emotions"
    if lang == "zh":
        assert all(r["summary"].startswith(("用户:", "客服:")) and r["summary"].endswith("。") for r in recs)
    else:
        assert all(r["summary"].startswith(("Customer: ", "Agent: ")) for r in recs)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("n", [1, 2])
def test_summarize_max_sentences(lang, n):
    sources = read_jsonl(SAMPLES[lang])
    for rec, src in zip(summarize(SAMPLES[lang], "--max-sentences", n), sources):
        check_record(rec, src, lang, max_sentences=n)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("max_chars", [20, 60])
def test_summarize_max_chars_with_constraint(lang, max_chars):
    # The budget holds after the constraint swaps an emotion sentence in (only a single sentence may
    # exceed it, as the first pick may).
    sources = read_jsonl(SAMPLES[lang])
    for rec, src in zip(summarize(SAMPLES[lang], "--max-chars", max_chars), sources):
        check_record(rec, src, lang, 4)
        bodies = [core(s["text"], lang)[1] for s in rec["sentences"]]
        assert len(bodies) == 1 or sum(len(b) for b in bodies) <= max_chars, (max_chars, bodies)


@pytest.mark.parametrize("ranker", ["lead", "longest", "lexrank"])
def test_summarize_rankers(ranker):
    sources = read_jsonl(SAMPLES["en"])
    # The units (sentences) of each dialogue, as the summarizer split them.
    units = [r["attention"]["units"] for r in summarize(SAMPLES["en"], "--explain")]
    # --redundancy 0 --no-constraint: the pure baselines, as the Lead-N / Longest-N rows of kessel eval.
    recs = summarize(SAMPLES["en"], "--ranker", ranker, "--max-sentences", 2, "--no-constraint",
                     "--redundancy", 0)
    for rec, src, us in zip(recs, sources, units):
        check_record_loose(rec, src, "en", 2)
        picked = [core(s["text"], "en")[1] for s in rec["sentences"]]
        assert len(picked) == min(2, len(us))
        # A sentence under its speaker's label opens with a capital, unless an emotion mention opens it ("wtf").
        def as_shown(texts):
            return [p if p in (t, t[:1].upper() + t[1:]) else t for p, t in zip(picked, texts)]
        if ranker == "lead":
            assert picked == as_shown([u["text"] for u in us[:2]])
        if ranker == "longest":
            by_length = sorted(range(len(us)), key=lambda i: (-len(us[i]["text"]), i))[:2]
            assert picked == as_shown([us[i]["text"] for i in sorted(by_length)])


def check_record_loose(rec, source, lang, max_sentences):
    """check_record without the constraint (for --no-constraint runs): offsets are still exact."""
    check_record(dict(rec, emotions=[]), source, lang, max_sentences)
    for e in rec["emotions"]:
        text = source["turns"][e["turn"]]["text"]
        assert text[e["start"]:e["end"]] == e["term"]


def test_summarize_fuzzy_attention():
    sources = read_jsonl(SAMPLES["zh"])
    recs = summarize(SAMPLES["zh"], "--attention", "fuzzy")
    for rec, src in zip(recs, sources):
        check_record(rec, src, "zh", 4)


def low_salience_emotion_dialogue():
    """The only customer emotion sits in a short last sentence; the rest is long, repetitive agent
    text that every ranker prefers."""
    agent = "Your refund for order 12345 has been processed and the refund will reach your card in three days."
    return dialogue(
        "low-salience",
        ("customer", "Hello, I want a refund for order 12345 please, the refund for order 12345."),
        ("agent", agent),
        ("customer", "Will the refund for order 12345 reach my card in three days?"),
        ("agent", agent + " The refund for order 12345 is confirmed."),
        ("customer", "ugh. furious."),
    )


@pytest.mark.parametrize("ranker", ["lead", "centrality"])
def test_no_constraint_can_drop_emotion(tmp_path, ranker):
    path = write_jsonl(tmp_path / "d.jsonl", [low_salience_emotion_dialogue()])
    (free,) = summarize(path, "--ranker", ranker, "--max-sentences", 1, "--no-constraint")
    assert free["emotions"], "the dialogue has a customer emotion"
    assert free["constraint_satisfied"] is False
    assert not any(e["in_summary"] for e in free["emotions"])
    (kept,) = summarize(path, "--ranker", ranker, "--max-sentences", 1)
    assert kept["constraint_satisfied"] is True
    assert len(kept["sentences"]) == 1 and kept["sentences"][0]["turn"] == 4


def test_emotion_span_clause_or_sentence(tmp_path):
    """--emotion-span clause keeps only the clause that holds the emotion of a sentence too long to read
    whole (over 90 code points in English); sentence (the default without a model) keeps the whole
    sentence; anything else is refused naming the flag."""
    d = dialogue(
        "clause",
        ("customer", "Hello, I want a refund for order 12345 please, the refund for order 12345."),
        ("agent", "Your refund for order 12345 has been processed and will reach your card in three days."),
        ("customer", "Well, I am furious, this took three weeks and nobody answered my emails, my calls or my letters about it!"),
    )
    path = write_jsonl(tmp_path / "d.jsonl", [d])
    (clause,) = summarize(path, "--ranker", "lead", "--max-sentences", 1, "--emotion-span", "clause")
    assert clause["constraint_satisfied"] is True
    assert [s["text"] for s in clause["sentences"]] == ["Customer: I am furious."]
    assert [s["turn"] for s in clause["sentences"]] == [2]
    assert [e["in_summary"] for e in clause["emotions"] if e["term"] == "furious"] == [True]
    (whole,) = summarize(path, "--ranker", "lead", "--max-sentences", 1, "--emotion-span", "sentence")
    assert [s["text"] for s in whole["sentences"]] == ["Customer: " + d["turns"][2]["text"]]
    (default,) = summarize(path, "--ranker", "lead", "--max-sentences", 1)
    assert default["sentences"] == whole["sentences"]
    err = fails("summarize", "--input", path, "--emotion-span", "word")
    assert "--emotion-span" in err


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_explain_attention_rows_sum_to_one(lang):
    recs = summarize(SAMPLES[lang], "--explain")
    for rec in recs:
        att = rec["attention"]
        units, queries, weights = att["units"], att["queries"], att["weights"]
        assert len(weights) == len(queries) > 0
        for q, row in zip(queries, weights):
            assert 0 <= q < len(units)
            assert len(row) == len(units)
            assert all(w >= 0 for w in row)
            assert abs(sum(row) - 1.0) < 1e-3, row
    assert "attention" not in summarize(SAMPLES[lang])[0]


def test_explain_large_dialogue_masks_self(tmp_path):
    # More units than the ranker's query block (256): every row still hides its own unit and sums to 1.
    turns = [("customer" if i % 3 else "agent", f"Parcel {i % 17} is at depot {i % 5}.") for i in range(510)]
    path = write_jsonl(tmp_path / "d.jsonl", [dialogue("d", *turns)])
    for attention in ("softmax", "fuzzy"):
        (rec,) = summarize(path, "--explain", "--attention", attention)
        att = rec["attention"]
        assert len(att["units"]) == 510 and len(att["queries"]) == 340
        for q, row in zip(att["queries"], att["weights"]):
            assert row[q] == 0.0, (attention, q)
            assert abs(sum(row) - 1.0) < 1e-3


def test_explain_says_why_a_map_is_omitted(tmp_path):
    turns = [("customer" if i % 3 else "agent", f"Parcel {i % 17} is at depot {i % 5}.") for i in range(600)]
    path = write_jsonl(tmp_path / "d.jsonl", [dialogue("d", *turns), dialogue("s", *turns[:4])])
    big, small = summarize(path, "--explain")
    assert "attention" not in big
    assert big["attention_omitted"] == "the dialogue has 600 sentences; maps are given for at most 512"
    assert "attention" in small and "attention_omitted" not in small
    (_, lead) = summarize(path, "--explain", "--ranker", "lead")
    assert "attention" not in lead
    assert lead["attention_omitted"] == "the ranker has no attention map, or the dialogue has no customer sentence"
    assert all("attention_omitted" not in r for r in summarize(path))


def test_punctuation_only_units_not_selected(tmp_path):
    cases = [
        dialogue("zh", ("customer", "？？？"), ("customer", "我的订单呢？"), ("agent", "。。。"), ("agent", "在的，马上发货。")),
        dialogue("en", ("customer", "..."), ("customer", "Where is my order?"), ("agent", "!!"), ("agent", "It ships today.")),
        dialogue("only", ("customer", "？？？"), ("agent", "...")),
    ]
    path = write_jsonl(tmp_path / "p.jsonl", cases)
    for ranker in ("lead", "centrality", "longest", "lexrank"):
        zh, en, only = summarize(path, "--ranker", ranker)
        # The question keeps its mark as a baseline renders it; the unsupervised mode reports it.
        want = "用户:询问我的订单呢。客服:在的，马上发货。" if ranker == "centrality" else "用户:我的订单呢？客服:在的，马上发货。"
        assert zh["summary"] == want, (ranker, zh)
        assert en["summary"] == "Customer: Where is my order? Agent: It ships today.", (ranker, en)
        assert only["sentences"] == [] and only["summary"] == "", "nothing to say: an empty summary"


def test_unsupervised_english_drops_addressing_and_repeats(tmp_path):
    # The README's first command on Twitter-style dialogues: @mentions, URLs and sign-off-only units
    # are rendered away as a trained model does, and a sentence said twice is picked once.
    d = dialogue("tw",
                 ("customer", "@AmazonHelp my package is late again https://t.co/abc"),
                 ("agent", "@123 Sorry to hear that, we are checking it."),
                 ("agent", "^CAR"),
                 ("customer", "@AmazonHelp my package is late again"),
                 ("agent", "@123 Sorry to hear that, we are checking it."),
                 ("agent", "^CAR"))
    (rec,) = summarize(write_jsonl(tmp_path / "tw.jsonl", [d]), "--max-sentences", "4")
    assert "@" not in rec["summary"] and "http" not in rec["summary"] and "^CAR" not in rec["summary"], rec
    bodies = [s["text"].split(": ", 1)[1].rstrip(".!") for s in rec["sentences"]]
    assert len(bodies) == len(set(bodies)) == 2, rec
    # The customer's sentence, its link and sign-off gone, ends in a stop: the agent's does not run on from it.
    assert rec["summary"] == "Customer: My package is late again. Agent: Sorry to hear that, we are checking it.", rec


def test_html_report(tmp_path):
    html = tmp_path / "report.html"
    recs = summarize(SAMPLES["zh"], "--html", html)
    page = html.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html")
    for rec in recs:
        for s in rec["sentences"]:
            assert html_escape(s["text"]) in page
            assert f'-t{s["turn"]}">{html_escape(s["text"])}</a>' in page, "summary links to its turn"
        for e in rec["emotions"]:
            assert f">{html_escape(e['term'])}</mark>" in page
    assert '<mark class="kept"' in page
    assert page.count("<section") == len(recs)
    assert "Attention (customer sentences" in page


def html_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def test_html_report_large_dialogue(tmp_path):
    # 400 sentences: the heat map (customer sentences x sentences) is left out, and the page says so.
    turns = [("customer" if i % 2 == 0 else "agent", f"Order <{i}> & co is late, \"really\".") for i in range(400)]
    turns[10] = ("customer", "This is ridiculous, I am furious.")
    path = write_jsonl(tmp_path / "big.jsonl", [dialogue("big", *turns)])
    html = tmp_path / "big.html"
    (rec,) = summarize(path, "--html", html)
    page = html.read_text(encoding="utf-8")
    assert "Attention map omitted: 400 sentences (the page draws it up to 300" in page
    assert len(page) < 1_000_000
    # Beyond 512 sentences no scorer computes the map; the page says that instead.
    path = write_jsonl(tmp_path / "bigger.jsonl", [dialogue("bigger", *(turns * 2))])
    summarize(path, "--html", html)
    assert "Attention map omitted: 800 sentences (scorers compute it up to 512)" in html.read_text(encoding="utf-8")
    assert html_escape(turns[1][1]) in page and turns[1][1] not in page
    assert any(e["in_summary"] for e in rec["emotions"]) and '<mark class="kept"' in page


def test_pretty(tmp_path):
    p = run("summarize", "--input", SAMPLES["en"], "--pretty")
    recs = summarize(SAMPLES["en"])
    for rec in recs:
        assert f"== {rec['id']}" in p.stdout
        assert rec["summary"] in p.stdout
    assert not p.stdout.lstrip().startswith("{")


def test_output_file(tmp_path):
    out = tmp_path / "out.jsonl"
    p = run("summarize", "--input", SAMPLES["zh"], "--output", out)
    assert p.stdout == ""
    assert [r["id"] for r in read_jsonl(out)] == [s["id"] for s in read_jsonl(SAMPLES["zh"])]


# ---- formats --------------------------------------------------------------------------------------


def csds_record(i):
    return {
        "tods_index": i,
        "Dialogue": [
            {"speaker": "Q", "role": "用户", "utterance": "我的快递怎么还没到，气死我了", "truncated": False},
            {"speaker": "A", "role": "客服", "utterance": "亲亲，这边帮您查询一下物流信息。", "truncated": False},
            {"speaker": "Q", "role": "用户", "utterance": "快点", "truncated": False},
        ],
        "TopicSumm": [{"Topic": "物流", "QASumm": "用户询问快递为何未到。客服回答帮忙查询。"}],
    }


def tweetsumm_record(i):
    return {
        "conversation_id": f"tw{i}",
        "turns": [
            {"is_agent": False, "sentences": ["@Air my bag is lost.", "This is ridiculous 😡"]},
            {"is_agent": True, "sentences": ["Sorry to hear that.", "Please DM us your tag number."]},
        ],
        "abstractive_summaries": [["Customer lost a bag.", "Agent asks for the tag number."]],
        "extractive_summaries": [[{"turn": 0, "sentence": 0}]],
    }


def test_format_detection(tmp_path):
    csds = write_jsonl(tmp_path / "c.jsonl", [csds_record(0), csds_record(1)])
    tw = write_jsonl(tmp_path / "t.jsonl", [tweetsumm_record(0)])
    ks = write_jsonl(tmp_path / "k.jsonl", [dialogue("k0", ("customer", "hi, my order is late"), ("agent", "sorry"))])
    c = summarize(csds)
    assert [r["id"] for r in c] == ["0", "1"]
    assert all(r["summary"].startswith("用户:") for r in c)
    assert any(e["term"] in "气死我了" for e in c[0]["emotions"])
    (t,) = summarize(tw)
    assert t["id"] == "tw0" and t["summary"].startswith("Customer: ")
    assert {s["turn"] for s in t["sentences"]} <= {0, 1}
    (k,) = summarize(ks)
    assert k["id"] == "k0"
    assert json.loads(run("analyze", "--data", csds, "--json").stdout)["dialogues"] == 2
    ev = json.loads(run("eval", "--data", tw, "--json").stdout)
    assert ev["format"] == "tweetsumm"
    assert json.loads(run("eval", "--data", csds, "--json").stdout)["format"] == "csds"


def test_format_override(tmp_path):
    ks = write_jsonl(tmp_path / "k.jsonl", [dialogue("k0", ("customer", "my order is late"), ("agent", "sorry"))])
    assert summarize(ks, "--format", "kessel")[0]["id"] == "k0"
    err = fails("summarize", "--input", ks, "--format", "csds")
    assert "k.jsonl:1" in err and "Dialogue" in err
    err = fails("summarize", "--input", ks, "--format", "xml")
    assert "--format" in err


def test_times_iso8601_and_numeric(tmp_path):
    iso = dialogue("iso", ("customer", "hello, where is my parcel", "2024-03-01T10:00:00Z"),
                   ("agent", "checking now", "2024-03-01T18:05:00+08:00"))
    num = dialogue("num", ("customer", "hello, where is my parcel", 10), ("agent", "checking now", 130.5))
    # Out of order (agent reply stamped before the question): the duration is still earliest..latest.
    back = dialogue("back", ("customer", "hello, where is my parcel", 500), ("agent", "checking now", 200),
                    ("customer", "thanks", 300))
    for d, span in ((iso, 300.0), (num, 120.5), (back, 300.0)):
        path = write_jsonl(tmp_path / f"{d['id']}.jsonl", [d])
        a = json.loads(run("analyze", "--data", path, "--json").stdout)
        assert a["physical"]["dialogues_with_times"] == 1.0
        assert a["physical"]["time_span_s"] == [pytest.approx(span), pytest.approx(span)]
        assert summarize(path)[0]["id"] == d["id"]
    bad = dialogue("bad", ("customer", "hello", "yesterday at noon"), ("agent", "hi"))
    err = fails("summarize", "--input", write_jsonl(tmp_path / "bad.jsonl", [bad]))
    assert "bad.jsonl:1" in err and "time" in err


# ---- bad input ------------------------------------------------------------------------------------


BAD_RECORDS = {
    "empty_dialogue": ({"id": "e", "turns": []}, "turns"),
    "missing_turns": ({"id": "m"}, "turns"),
    "missing_text": ({"id": "m", "turns": [{"speaker": "customer"}]}, "text"),
    "text_not_string": ({"id": "w", "turns": [{"speaker": "customer", "text": 42}]}, "text"),
    "turns_not_list": ({"id": "w", "turns": "hello"}, "turns"),
    "speaker_bot": ({"id": "b", "turns": [{"speaker": "bot", "text": "hi"}]}, "speaker"),
    "truncated_json": ('{"id": "t", "turns": [{"speaker": "customer", "te', ""),
    # A number beyond double: nlohmann's out_of_range, once an internal error (exit 3).
    "number_overflow": ('{"id": "o", "turns": [{"speaker": "customer", "text": "hi", "time": 1e999}]}',
                        "turns[0].time: number out of range: 1e999"),
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_bad_record_fails_with_location(tmp_path, case):
    record, field = BAD_RECORDS[case]
    path = write_jsonl(tmp_path / "in.jsonl", [GOOD, record])
    err = fails("summarize", "--input", path)
    assert "in.jsonl:2" in err, err
    assert field in err, err


def test_on_error_skip_reports_every_record(tmp_path):
    lines = [GOOD]
    for i, case in enumerate(sorted(BAD_RECORDS)):
        lines.append(BAD_RECORDS[case][0])
        lines.append(dict(GOOD, id=f"good{i}"))
    path = tmp_path / "in.jsonl"
    write_jsonl(path, lines)
    with open(path, "ab") as f:
        f.write(b'{"id": "utf8", "turns": [{"speaker": "customer", "text": "bad \xff\xfe byte"}]}\n')
    p = run("summarize", "--input", path, "--on-error", "skip")
    recs = records(p.stdout)
    assert [r["id"] for r in recs] == ["good"] + [f"good{i}" for i in range(len(BAD_RECORDS))]
    bad_lines = [2 + 2 * i for i in range(len(BAD_RECORDS))] + [len(lines) + 1]
    for line in bad_lines:
        assert f"in.jsonl:{line}:" in p.stderr, (line, p.stderr)
    assert f"{len(bad_lines)} records skipped" in p.stderr, p.stderr


def test_a_dialogue_too_long_for_the_graph_rankers_is_named_and_skippable(tmp_path):
    # 20,001 sentences: beyond the unsupervised ranker's [U, U] limit. The others still get summaries.
    long = dialogue("long", *[("customer" if i % 2 else "agent", f"Parcel {i}.") for i in range(20001)])
    path = write_jsonl(tmp_path / "in.jsonl", [GOOD, long, dict(GOOD, id="after")])
    err = fails("summarize", "--input", path)
    assert "dialogue 'long' (line 2) has 20001 sentences" in err and "--model" in err, err
    p = run("summarize", "--input", path, "--on-error", "skip")
    assert [r["id"] for r in records(p.stdout)] == ["good", "after"]
    assert "skipped " + str(path) + ":2: centrality: dialogue 'long'" in p.stderr, p.stderr
    assert "1 dialogue skipped (--on-error skip)" in p.stderr, p.stderr
    only = write_jsonl(tmp_path / "only.jsonl", [long])
    err = fails("summarize", "--input", only, "--on-error", "skip")
    assert "every dialogue was skipped (1)" in err, err


def test_a_bad_first_record_does_not_stop_format_detection(tmp_path):
    path = tmp_path / "first_bad.jsonl"
    with open(path, "wb") as f:
        f.write(b'{"id": "x", "turns": [{"speaker": "customer", "text": "caf\xc3 \xff"}]}\n')
        f.write(json.dumps(GOOD).encode() + b"\n")
    # Without --format: fails on the bad record itself (not on detection), or skips it.
    err = fails("summarize", "--input", path)
    assert "first_bad.jsonl:1: turns[0].text: invalid UTF-8 at byte offset 58 of the line (0xC3)" in err, err
    p = run("summarize", "--input", path, "--on-error", "skip")
    assert [r["id"] for r in records(p.stdout)] == [GOOD["id"]]
    assert p.stderr.count("first_bad.jsonl:1:") == 1, p.stderr  # named once per skipped record
    assert "1 records skipped" in p.stderr, p.stderr


def test_dash_reads_standard_input_and_writes_standard_output(tmp_path):
    lines = [GOOD, dialogue("two", ("customer", "where is my refund :("), ("agent", "it is on its way"))]
    text = "".join(json.dumps(r) + "\n" for r in lines)
    p = subprocess.run([CLI, "summarize", "--input", "-", "--output", "-"], input=text, capture_output=True,
                       text=True, timeout=60, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert [r["id"] for r in records(p.stdout)] == ["good", "two"]
    assert not (tmp_path / "-").exists()
    # Errors in standard input are named <stdin> with their line.
    p = subprocess.run([CLI, "summarize", "--input", "-"], input=text + '{"id": "x", "turns": []}\n',
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "<stdin>:3: turns: empty dialogue" in p.stderr, p.stderr


def test_threads_do_not_change_the_output(tmp_path):
    # More dialogues than one block of 64 per thread, so blocks and their order are exercised.
    base = read_jsonl(SAMPLES["zh"]) + read_jsonl(SAMPLES["en"])
    many = [dict(d, id=f"{d['id']}-{i}") for i in range(25) for d in base]
    path = write_jsonl(tmp_path / "many.jsonl", many)
    one = run("summarize", "--input", path, "--explain", "--threads", "1").stdout
    three = run("summarize", "--input", path, "--explain", "--threads", "3").stdout
    assert one == three and len(one.splitlines()) == len(many) > 3 * 64
    assert [r["id"] for r in records(three)] == [d["id"] for d in many]
    assert "--threads" in fails("summarize", "--input", path, "--threads", "0")


def test_invalid_utf8_names_file_and_line(tmp_path):
    path = tmp_path / "bad_utf8.jsonl"
    with open(path, "wb") as f:
        f.write(json.dumps(GOOD).encode() + b"\n")
        f.write(b'{"id": "x", "turns": [{"speaker": "customer", "text": "caf\xc3 \xff"}]}\n')
    err = fails("summarize", "--input", path)
    assert "bad_utf8.jsonl:2: turns[0].text: invalid UTF-8 at byte offset 58 of the line (0xC3)" in err, err
    # The field is found in every format (a CSDS utterance, a TweetSumm sentence) and in keys.
    for name, line in [("csds", b'{"Dialogue": [{"speaker": "Q", "utterance": "ok"}, {"speaker": "A", "utterance": "\xe4\xbd"}]}'),
                       ("tweetsumm", b'{"turns": [{"is_agent": false, "sentences": ["hi", "bad \xff"]}]}'),
                       ("key", b'{"id": "k", "turns": [{"speaker": "customer", "te\xffxt": "hi"}]}')]:
        (tmp_path / "f.jsonl").write_bytes(line + b"\n")
        err = fails("summarize", "--input", tmp_path / "f.jsonl")
        where = {"csds": "Dialogue[1].utterance", "tweetsumm": "turns[0].sentences[1]", "key": "turns[0].te\ufffdxt (key)"}[name]
        assert f"f.jsonl:1: {where}: invalid UTF-8" in err, (name, err)


def test_a_file_of_unreadable_records_is_skipped_and_counted(tmp_path):
    # No record tells its format; with skip each is still reported and counted (format detection
    # used to stop the run with a JSON parser message instead).
    path = tmp_path / "all_bad.jsonl"
    path.write_bytes(b'{"id": "x", "turns": [{"speaker": "customer", "text": "bad \xff"}]}\n[1, 2]\n')
    p = run("summarize", "--input", path, "--on-error", "skip", check=False)
    assert "all_bad.jsonl:1: turns[0].text: invalid UTF-8" in p.stderr, p.stderr
    assert "all_bad.jsonl:2: record: expected a JSON object" in p.stderr, p.stderr
    assert "2 records skipped" in p.stderr, p.stderr


def test_empty_file(tmp_path):
    for content in ("", "\n  \n"):
        path = tmp_path / "empty.jsonl"
        path.write_text(content)
        for cmd, flag in (("summarize", "--input"), ("eval", "--data"), ("analyze", "--data")):
            err = fails(cmd, flag, path)
            assert "empty.jsonl: no dialogues" in err, err
    # Every record skipped: the same error, after the skip report.
    path = write_jsonl(tmp_path / "allbad.jsonl", [{"id": "e", "turns": []}])
    err = fails("summarize", "--input", path, "--on-error", "skip")
    assert "allbad.jsonl:1:" in err and "1 skipped" in err, err


def test_missing_input_and_unwritable_output(tmp_path):
    err = fails("summarize", "--input", tmp_path / "nope.jsonl")
    assert "nope.jsonl" in err
    err = fails("summarize", "--input", SAMPLES["en"], "--output", tmp_path / "no_dir" / "out.jsonl")
    assert "--output" in err and "no_dir" in err
    err = fails("summarize", "--input", SAMPLES["en"], "--html", tmp_path / "no_dir" / "r.html")
    assert "no_dir" in err


# ---- extreme dialogues ----------------------------------------------------------------------------


def test_extreme_dialogues(tmp_path):
    cases = [
        dialogue("emoji", ("customer", "😡😡"), ("agent", "👍"), ("customer", "👍")),
        dialogue("agent-only", ("agent", "Hello, how can I help?"), ("agent", "Are you still there?")),
        dialogue("one-turn", ("customer", "Where is my refund? I am so angry.")),
        dialogue("zh-one", ("customer", "无语")),
    ]
    path = write_jsonl(tmp_path / "x.jsonl", cases)
    recs = summarize(path)
    assert [r["id"] for r in recs] == [c["id"] for c in cases]
    emoji, agent_only, one_turn, zh_one = recs
    assert emoji["emotions"] and emoji["emotions"][0]["term"] == "😡"
    assert emoji["constraint_satisfied"] and emoji["emotions"][0]["in_summary"]
    assert agent_only["emotions"] == [] and agent_only["constraint_satisfied"] is True
    assert all(s["text"].startswith("Agent: ") for s in agent_only["sentences"])
    assert [s["turn"] for s in one_turn["sentences"]] == [0, 0]
    assert zh_one["summary"] == "用户:无语。"
    for rec, src in zip(recs, cases):
        check_record(rec, src, "zh" if src["id"] == "zh-one" else "en", 4)


def long_dialogue(n):
    turns = []
    for i in range(n):
        if i % 2 == 0:
            turns.append(("customer", f"Where is order {i}? It shipped on Monday." + (" I am furious!" if i == n // 2 else "")))
        else:
            turns.append(("agent", f"Sorry, order {i} ships tomorrow."))
    return dialogue(f"long{n}", *turns)


def summarize_timed(path, *extra):
    start = time.perf_counter()
    p = run("summarize", "--input", path, *extra, timeout=900)
    return records(p.stdout), time.perf_counter() - start


@pytest.mark.parametrize("ranker", ["lead", "longest"])
def test_10000_turn_dialogue(tmp_path, ranker):
    # Reader, tokenizer, emotion detection, decoding and output at 10,000 turns. The attention and
    # LexRank rankers are O(units^2) in time and memory; see test_10000_turn_dialogue_centrality.
    src = long_dialogue(10_000)
    path = write_jsonl(tmp_path / "long.jsonl", [src])
    (rec,), seconds = summarize_timed(path, "--ranker", ranker)
    print(f"\nsummarize --ranker {ranker}, 10,000 turns: {seconds:.2f} s")
    check_record(rec, src, "en", 4)
    assert [e["turn"] for e in rec["emotions"]] == [5000] and rec["emotions"][0]["in_summary"]


@pytest.mark.skipif(not os.environ.get("KESSEL_SLOW_TESTS"),
                    reason="O(units^2): about a minute of CPU and 1 GB at 10,000 turns; set KESSEL_SLOW_TESTS=1")
def test_10000_turn_dialogue_centrality(tmp_path):
    src = long_dialogue(10_000)
    path = write_jsonl(tmp_path / "long.jsonl", [src])
    (rec,), seconds = summarize_timed(path)
    print(f"\nsummarize (centrality), 10,000 turns: {seconds:.2f} s")
    check_record(rec, src, "en", 4)


def test_long_turns(tmp_path):
    # 100,000 characters in one turn: as one unbroken sentence, and as 100 sentences of 1,000.
    unbroken = "late " * 19_999 + "angry"
    sentences = " ".join(("The parcel " + "is very " * 123 + "late.")[:999] for _ in range(100))
    cjk = "快递" * 50_000
    cases = [
        dialogue("unbroken", ("customer", unbroken), ("agent", "ok")),
        dialogue("sentences", ("customer", sentences + " I am angry."), ("agent", "ok")),
        dialogue("cjk", ("customer", cjk + "，气死我了"), ("agent", "好的")),
    ]
    assert all(len(c["turns"][0]["text"]) >= 100_000 for c in cases)
    path = write_jsonl(tmp_path / "wide.jsonl", cases)
    recs, seconds = summarize_timed(path)
    print(f"\nsummarize three 100,000-character turns: {seconds:.2f} s")
    for rec, src in zip(recs, cases):
        check_record(rec, src, "zh" if src["id"] == "cjk" else "en", 4)
        text = src["turns"][0]["text"]
        assert rec["emotions"] and rec["emotions"][-1]["end"] == len(text.rstrip("."))


# ---- outputs are whole or absent (issue 23) --------------------------------------------------------


def too_long_for_the_graph_rankers():
    return dialogue("long", *[("customer" if i % 2 else "agent", f"Parcel {i}.") for i in range(20001)])


def test_a_refused_record_leaves_the_previous_output_as_it_was(tmp_path):
    # The output was truncated first, then filled: a refusal left the records before it, the old
    # contents gone. Now a temporary beside it is renamed over it only at the end.
    out = tmp_path / "out.jsonl"
    out.write_text("previous run\n")
    path = write_jsonl(tmp_path / "in.jsonl", [GOOD, too_long_for_the_graph_rankers(), dict(GOOD, id="after")])
    err = fails("summarize", "--input", path, "--output", out)
    assert f"--output {out}: not written; the previous file is left as it was" in err, err
    assert out.read_text() == "previous run\n"
    only = write_jsonl(tmp_path / "only.jsonl", [too_long_for_the_graph_rankers()])
    err = fails("summarize", "--input", only, "--on-error", "skip", "--output", out)
    assert "every dialogue was skipped (1)" in err and "the previous file is left as it was" in err, err
    assert out.read_text() == "previous run\n"
    fresh = tmp_path / "fresh.jsonl"
    err = fails("summarize", "--input", path, "--output", fresh)
    assert f"--output {fresh}: not written; no file was created" in err, err
    assert not fresh.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "only.jsonl", "out.jsonl"]  # no temporaries
    run("summarize", "--input", SAMPLES["en"], "--output", out, "--html", tmp_path / "r.html")
    assert [r["id"] for r in read_jsonl(out)] == [s["id"] for s in read_jsonl(SAMPLES["en"])]
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!doctype html>")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_an_error():
    # exit 0 before: nothing checked the writes.
    args = ("summarize", "--input", SAMPLES["en"], "--ranker", "lead", "--max-sentences", "1")
    err = fails(*args, "--output", "/dev/full")
    assert "--output /dev/full: write failed: No space left on device" in err, err
    err = fails(*args, "--html", "/dev/full")
    assert "--html /dev/full: write failed: No space left on device" in err, err
    with open("/dev/full", "w") as full:
        p = subprocess.run([CLI, *map(str, args)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert p.returncode != 0 and "standard output: write failed" in p.stderr, p.stderr


def test_an_output_that_cannot_be_written_is_named(tmp_path):
    args = ("summarize", "--input", SAMPLES["en"], "--ranker", "lead")
    err = fails(*args, "--output", tmp_path / "missing" / "out.jsonl")
    assert "cannot write into the folder" in err and "missing" in err, err
    err = fails(*args, "--output", tmp_path)
    assert "is a folder" in err, err


def test_a_nul_byte_is_an_error_naming_the_line(tmp_path):
    # Everything after the NUL was dropped with exit 0 (one summary for two dialogues).
    a, b = json.dumps(dict(GOOD, id="a")), json.dumps(dict(GOOD, id="b"))
    path = tmp_path / "n.jsonl"
    path.write_bytes((a + "\0" + b + "\n").encode())
    err = fails("summarize", "--input", path)
    assert f"{path}:1: record: NUL byte (0x00) at byte offset {len(a)}" in err, err
    path.write_bytes((json.dumps(dict(GOOD, id="first")) + "\n" + a + "\0" + b + "\n").encode())
    p = run("summarize", "--input", path, "--on-error", "skip")
    assert [r["id"] for r in records(p.stdout)] == ["first"]
    assert f"skipped {path}:2: record: NUL byte" in p.stderr, p.stderr


def test_repeated_dialogue_ids_warn_or_fail(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [GOOD, dict(GOOD, id="other"), GOOD])
    err = fails("summarize", "--input", path)
    assert f'{path}:3: id: "good" is also the id of line 1' in err, err
    p = run("summarize", "--input", path, "--on-error", "skip")
    assert [r["id"] for r in records(p.stdout)] == ["good", "other", "good"]
    assert f'warning: {path}:3: id: "good" is also the id of line 1' in p.stderr, p.stderr


@pytest.mark.parametrize("command", [["summarize", "--input", SAMPLES["en"]]])
def test_a_thread_count_beyond_an_int_is_refused_naming_the_option(command):
    p = run(*command, "--threads", 2**40, check=False)
    assert p.returncode != 0 and "--threads" in p.stderr and str(2**40) in p.stderr, p.stderr


def test_kv_int8_scores_a_model_and_a_bad_kv_is_a_usage_error(tmp_path):
    """--kv int8 (issue 27): the model's attention K/V are stored as int8 while scoring; on the samples the
    summaries are float32's. Without a model, or for a name that is not a K/V type, it is a usage error
    naming --kv, in summarize, eval and serve alike."""
    model = tmp_path / "m.safetensors"
    run("train", "--data", SAMPLES["zh"], "--out", model, "--members", "2", "--epochs", "2")
    f32 = summarize(SAMPLES["zh"], "--model", model)
    int8 = summarize(SAMPLES["zh"], "--model", model, "--kv", "int8")
    assert [r["id"] for r in int8] == [r["id"] for r in f32]
    assert [[(s["turn"], s["text"]) for s in r["sentences"]] for r in int8] == \
        [[(s["turn"], s["text"]) for s in r["sentences"]] for r in f32]
    assert summarize(SAMPLES["zh"], "--model", model, "--kv", "float32") == f32  # the default, spelled out
    ev = json.loads(run("eval", "--data", SAMPLES["zh"], "--model", model, "--kv", "int8", "--bootstrap", 0,
                        "--json").stdout)
    names = [r["system"] for r in ev["rows"]]
    assert names[names.index("EACA") + 1] == "EACA, int8 K/V", names
    for cmd in ("summarize", "eval", "serve"):
        data = ["--input" if cmd != "eval" else "--data", SAMPLES["zh"]] if cmd != "serve" else []
        bogus = run(cmd, *data, "--model", model, "--kv", "bogus", check=False)
        assert bogus.returncode == 2 and "--kv" in bogus.stderr, (cmd, bogus.returncode, bogus.stderr)
        no_model = run(cmd, *data, "--kv", "int8", check=False)
        assert no_model.returncode == 2 and "--kv int8: needs --model" in no_model.stderr, \
            (cmd, no_model.returncode, no_model.stderr)


def test_attention_kernel_is_shown_chosen_by_length_and_overridable(tmp_path):
    """--attention-kernel (issue 27 item 5): --explain names the kernel the EACA attention ran on; auto
    picks fused for these short dialogues (the measured table, docs/benchmarks.md), a forced kernel is
    named as forced, the reference and a one-dialogue-wide chunk give the same summaries as fused, and
    without a model the flag is a usage error naming it."""
    model = tmp_path / "m.safetensors"
    run("train", "--data", SAMPLES["zh"], "--out", model, "--members", "1", "--epochs", "2")
    auto = summarize(SAMPLES["zh"], "--model", model, "--explain")
    assert {r["attention_kernel"] for r in auto} == {"fused"}, [r.get("attention_kernel") for r in auto]
    ref = summarize(SAMPLES["zh"], "--model", model, "--explain", "--attention-kernel", "reference")
    assert {r["attention_kernel"] for r in ref} == {"reference (forced)"}
    assert [[s["text"] for s in r["sentences"]] for r in ref] == [[s["text"] for s in r["sentences"]] for r in auto]
    chunk = summarize(SAMPLES["zh"], "--model", model, "--explain", "--attention-kernel", "chunk_bridge")
    assert {r["attention_kernel"] for r in chunk} == {"chunk_bridge(C=256) (forced)"}
    assert [[s["text"] for s in r["sentences"]] for r in chunk] == [[s["text"] for s in r["sentences"]] for r in auto]
    p = run("summarize", "--input", SAMPLES["zh"], "--attention-kernel", "fused", check=False)
    assert p.returncode == 2 and "--attention-kernel: needs --model" in p.stderr, (p.returncode, p.stderr)
    p = run("summarize", "--input", SAMPLES["zh"], "--model", model, "--attention-kernel", "flash", check=False)
    assert p.returncode == 2 and "--attention-kernel" in p.stderr, (p.returncode, p.stderr)
    an = json.loads(run("analyze", "--data", SAMPLES["zh"], "--model", model, "--json").stdout)
    assert set(an["compute"]["attention_kernels"]) == {"fused"}, an["compute"]
