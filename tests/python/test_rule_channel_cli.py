"""The rule channel of the dual-channel attention (docs/eaca.md, "Dual-channel attention") in the
output of `kessel summarize`: `--explain` records carry one row per summary sentence with its reason and
weights, the summaries are the same with and without it, and the HTML report shows each reason escaped."""
import math

import pytest

from summarize_cli_harness import SAMPLES, dialogue, summarize, write_jsonl

EXPLAIN_ONLY = {"turns", "attention", "attention_omitted", "attention_kernel", "rule_channel"}


def wording(row, rules):
    """The reason as eaca_rule_channel.cc words it (turns from 0), rebuilt from the row's fields."""
    if "window_seconds" in rules:
        span = f"{rules['window_seconds']:g} s"
    else:
        span = f"{rules['window_turns']} turn" + ("" if rules["window_turns"] == 1 else "s")
    if not row["self_rules"] and not row["near"]:
        return "no rule on or near this sentence: chosen by the learned channel alone"
    parts = []
    if row["self_rules"]:
        on = [f"holds the customer's emotion '{row['self_term']}'" if r == "emotion" else "is a customer question"
              for r in row["self_rules"]]
        parts.append(" and ".join(on) + f" ({row['self_weight']:.2f})")
    for n in row["near"]:
        what = f"the customer's emotion '{n['term']}'" if n["rule"] == "emotion" else "a customer question"
        parts.append(f"within {span} of {what} (turn {n['turn']}, {n['weight']:.2f})")
    return "rules: " + "; ".join(parts)


def softmax(logits):
    z = sum(math.exp(x) for x in logits)
    return [math.exp(x) / z for x in logits]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_explain_rows_follow_the_summary_and_the_rules(lang):
    plain = summarize(SAMPLES[lang])
    explained = summarize(SAMPLES[lang], "--explain")
    for p, e in zip(plain, explained):
        # The learned channel alone selects: everything but the explanation is identical.
        assert {k: v for k, v in e.items() if k not in EXPLAIN_ONLY} == p, e["id"]
        rc = e["rule_channel"]
        assert set(rc["rules"]) >= {"emotion_nats", "question_nats", "window_nats"}
        assert ("window_seconds" in rc["rules"]) != ("window_turns" in rc["rules"])
        rows = rc["sentences"]
        assert [r["turn"] for r in rows] == [s["turn"] for s in e["sentences"]]
        units = e["attention"]["units"]
        assert all(units[r["unit"]]["turn"] == r["turn"] for r in rows)
        nats = {"emotion": rc["rules"]["emotion_nats"], "question": rc["rules"]["question_nats"],
                "window": rc["rules"]["window_nats"]}
        for row in rows:
            w = row["weights"]
            assert len(w) == len(e["attention"]["units"]) and abs(sum(w) - 1) < 1e-5
            # The wording is about the sentence itself: the key rules on its own key, else (or
            # besides) the heaviest emotion / question key near it, else none.
            assert row["because"] == wording(row, rc["rules"]), row
            assert abs(row["self_weight"] - w[row["unit"]]) < 1e-6
            assert ("self_term" in row) == ("emotion" in row["self_rules"])
            for n in row["near"]:
                assert n["rule"] not in row["self_rules"] and n["unit"] != row["unit"]
                assert abs(w[n["unit"]] - n["weight"]) < 1e-6 and units[n["unit"]]["turn"] == n["turn"]
                if "window_turns" in rc["rules"]:
                    assert abs(n["turn"] - row["turn"]) <= rc["rules"]["window_turns"]
            # The weights are the softmax of the rules' nats on the keys each fired on: rebuild the logits
            # from the reasons' masses (a rule's mass is the sum of the weights on its keys).
            for reason in row["reasons"]:
                assert reason["nats"] == nats[reason["rule"]]
                assert 1 <= len(reason["keys"]) <= min(3, reason["fired"])
                assert reason["mass"] >= max(k["weight"] for k in reason["keys"]) - 1e-6
                for k in reason["keys"]:
                    assert abs(w[k["unit"]] - k["weight"]) < 1e-6
            assert "window" in {r["rule"] for r in row["reasons"]}  # a sentence is in its own window


def test_each_rule_fires_and_the_weights_are_its_nats(tmp_path):
    d = dialogue("rules",
                 ("customer", "Hello there.", 0),
                 ("agent", "How can I help you today?", 100),
                 ("customer", "Where is my order?", 200),
                 ("agent", "Let me check the tracking.", 300),
                 ("customer", "I am furious with this service.", 330),
                 ("agent", "It ships tomorrow morning.", 600))
    path = write_jsonl(tmp_path / "d.jsonl", [d])
    (rec,) = summarize(path, "--explain", "--ranker", "lead", "--max-sentences", 6, "--no-constraint",
                       "--redundancy", 0)
    rows = {r["unit"]: r for r in rec["rule_channel"]["sentences"]}
    assert 3 in rows, rec["sentences"]
    want = softmax([0, 0, 1, 1, 3, 0])  # unit 3 at t=300: question 2, window {3, 4}, emotion 4
    assert all(abs(a - b) < 1e-6 for a, b in zip(rows[3]["weights"], want)), rows[3]["weights"]
    # Unit 3 (an agent line) holds no rule; the emotion 30 s later is near it, the question 100 s
    # earlier is not.
    assert rows[3]["self_rules"] == [] and [n["unit"] for n in rows[3]["near"]] == [4]
    term = rows[3]["near"][0]["term"]
    assert "furious" in term
    assert rows[3]["because"] == f"rules: within 60 s of the customer's emotion '{term}' (turn 4, {want[4]:.2f})"
    # Unit 4 holds the emotion itself; unit 5, alone in its window, has no rule on or near it.
    assert rows[4]["self_rules"] == ["emotion"] and rows[4]["because"].startswith(
        f"rules: holds the customer's emotion '{term}' (")
    assert rows[5]["because"] == "no rule on or near this sentence: chosen by the learned channel alone"


def test_html_report_shows_each_reason_escaped(tmp_path):
    turns = [("customer", 'My order <b id="x">12</b> & co never came, I am furious!', 0),
             ("agent", "Sorry, could you DM us the <script>alert(1)</script> number?", 20),
             ("customer", 'Why is "tracking" empty?', 40)]
    path = write_jsonl(tmp_path / "d.jsonl", [dialogue("x<script>", *turns)])
    html = tmp_path / "r.html"
    (rec,) = summarize(path, "--explain", "--html", html)
    page = html.read_text(encoding="utf-8")
    assert "<script>" not in page and '<b id="x">' not in page
    rows = rec["rule_channel"]["sentences"]
    assert rows
    for row in rows:
        assert f'<div class="why">{escape(row["because"])}</div>' in page
    assert page.count('<div class="why">') == len(rec["sentences"])


def escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_python_module_gives_the_cli_rule_channel(lang):
    kessel = pytest.importorskip("kessel")
    import json
    with open(SAMPLES[lang], encoding="utf-8") as f:
        sources = [json.loads(l) for l in f if l.strip()]
    s = kessel.Summarizer()
    for src, rec in zip(sources, summarize(SAMPLES[lang], "--explain")):
        got = s.summarize(src, explain=True)
        assert got["rule_channel"] == rec["rule_channel"], src["id"]
        assert "rule_channel" not in s.summarize(src)
