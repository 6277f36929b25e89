#!/usr/bin/env python3
"""Why a summary misses the customer's strongest labelled emotion: one line per labelled dialogue.

  PYTHONPATH=build/python /usr/bin/python3 tools/emotion_misses.py \
      --data ../shared/data/csds/val.jsonl --labels tests/data/emotion_labels/csds_val_dev.jsonl \
      [--model M.safetensors] [--only-misses]

For each labelled dialogue with a customer emotion it prints the strongest labelled expression, the
detector's strongest expressed mention, what the summary kept, and one verdict:
  kept        the summary keeps the strongest expression (or an equal one), as `kessel eval` counts it
  undetected  no expressed mention overlaps the strongest expression (or an equal one)
  outranked   one does, but the constraint's strongest mention is another
  rendered    the expression's unit is in the summary but its words are not (deletion, reported speech)
  unselected  the strongest mention is the labelled one and its unit is not in the summary
It quotes the dialogues, so its output stays outside the repository. The counts at the end are the
figures to compare between two versions of the summarizer.
"""
import argparse
import collections
import json
import re
import sys
import unicodedata

import kessel


def comparable(s, keep_punct=False):
    """As src/summarize/emotion_labels.cc compares: no spaces or punctuation (kept for a span that is
    all punctuation, an emoticon such as :( ), case-folded."""
    return "".join(c.casefold() for c in s
                   if not (c.isspace() or (not keep_punct and unicodedata.category(c).startswith("P"))))


CONTRACTIONS = {"i'm": "i am", "im": "i am", "we're": "we are", "you're": "you are", "they're": "they are",
                "i've": "i have", "we've": "we have", "you've": "you have", "they've": "they have",
                "i'll": "i will", "we'll": "we will", "you'll": "you will", "they'll": "they will",
                "i'd": "i would", "we'd": "we would", "you'd": "you would", "they'd": "they would"}
FORMS = {"am": "be", "is": "be", "are": "be", "was": "was", "were": "was", "has": "have", "have": "have",
         "does": "do", "do": "do", "isn't": "isn't", "aren't": "isn't", "wasn't": "wasn't", "weren't": "wasn't",
         "hasn't": "haven't", "haven't": "haven't", "doesn't": "don't", "don't": "don't"}
PERSONS = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your", "yours",
           "yourself", "yourselves", "u", "ur", "they", "them", "their", "theirs", "themselves", "themself"}


def person_free_words(s):
    """As src/summarize/emotion_labels.cc compares an English report (a sentence without a speaker
    label): every person one word, the forms of be / have / do one each, a verb after a person without -s."""
    words = []
    for w in re.findall(r"[a-z0-9']+", s.replace("\u2019", "'").casefold()):
        words.extend(CONTRACTIONS.get(w, w).split())
    out, i = [], 0
    while i < len(words):
        w = words[i][:-2] if len(words[i]) > 2 and words[i].endswith("'s") else words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        nxt = nxt[:-2] if nxt.endswith("'s") else nxt
        if w == "the" and nxt in ("customer", "agent", "company"):
            out.append("P")
            i += 2
            continue
        if w in PERSONS:
            out.append("P")
        elif w in FORMS:
            out.append(FORMS[w])
        else:
            if out and out[-1] == "P" and len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
                es = len(w) > 4 and w.endswith(("shes", "ches", "xes", "sses", "zes"))
                w = w[:-2] if es else w[:-1]
            out.append(w)
        i += 1
    return out


def contains_words(text, words):
    n = len(words)
    return n > 0 and any(text[k:k + n] == words for k in range(len(text) - n + 1))


def body(sentence_text):
    """A sentence's text without a leading speaker label (用户: / Customer:)."""
    for label in ("用户:", "客服:", "Customer:", "Agent:", "用户：", "客服："):
        if sentence_text.startswith(label):
            return sentence_text[len(label):]
    return sentence_text


def load_labels(path):
    with open(path, encoding="utf-8") as f:
        return {j["id"]: j["expressions"] for j in map(json.loads, filter(str.strip, f))}


def overlaps(m, e):
    return m["turn"] == e["turn"] and m["start"] < e["end"] and e["start"] < m["end"]


def verdict(rec, turns, speakers, exprs):
    strongest = next(e for e in exprs if e["strongest"])
    equal = [e for e in exprs if e is strongest or (e["emotion"] == strongest["emotion"]
                                                   and e["intensity"] >= strongest["intensity"])]
    def kept(e):
        span = turns[e["turn"]][e["start"]:e["end"]]
        emoticon = not comparable(span)
        words = comparable(span, emoticon)
        person_free = person_free_words(span)
        same = [turns[s["turn"]] == turns[e["turn"]] and speakers[s["turn"]] == speakers[e["turn"]]
                for s in rec["sentences"]]
        run = ""
        for i, s in enumerate(rec["sentences"]):
            if not same[i]:
                run = ""
                continue
            if not (i > 0 and same[i - 1] and rec["sentences"][i - 1]["turn"] == s["turn"]):
                run = ""  # consecutive sentences of one message join: an expression over two units
            run += comparable(body(s["text"]), emoticon)
            if words and words in run:
                return True
            if body(s["text"]) == s["text"] and contains_words(person_free_words(s["text"]), person_free):
                return True
        return False
    if any(kept(e) for e in equal):
        return "kept", strongest
    expressed = [m for m in rec["emotions"] if m["strength"] > 0]
    hits = [m for m in expressed if any(overlaps(m, e) for e in equal)]
    if not hits:
        return "undetected", strongest
    top = max(expressed, key=lambda m: m["strength"])
    if not any(overlaps(top, e) for e in equal) and top["strength"] > max(h["strength"] for h in hits):
        return "outranked", strongest
    if any(s["turn"] == e["turn"] for s in rec["sentences"] for e in equal):
        return "rendered", strongest
    return "unselected", strongest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--model")
    ap.add_argument("--only-misses", action="store_true")
    args = ap.parse_args()
    labels = load_labels(args.labels)
    s = kessel.Summarizer(model=args.model) if args.model else kessel.Summarizer()
    counts = collections.Counter()
    with open(args.data, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    for raw in records:
        rec = s.summarize(raw)
        exprs = labels.get(rec["id"])
        if not exprs:
            continue
        explained = s.summarize(raw, explain=True)["turns"]
        turns = [t["text"] for t in explained]
        speakers = [t["speaker"] for t in explained]
        v, strongest = verdict(rec, turns, speakers, exprs)
        counts[v] += 1
        if args.only_misses and v == "kept":
            continue
        expressed = sorted((m for m in rec["emotions"] if m["strength"] > 0), key=lambda m: -m["strength"])
        top = expressed[0] if expressed else None
        label_text = turns[strongest["turn"]][strongest["start"]:strongest["end"]]
        print(f"{rec['id']}\t{v}\tlabel t{strongest['turn']} {strongest['emotion']}/{strongest['intensity']} "
              f"「{label_text}」 in 「{turns[strongest['turn']][:80]}」")
        if top:
            print(f"\t\ttop 「{top['term']}」 t{top['turn']} {top['kind']} {top['strength']:.2f}"
                  f" in_summary={top['in_summary']}")
        print(f"\t\tsummary: {rec['summary'][:300]}")
    total = sum(counts.values())
    print(f"\n{total} labelled dialogues with emotion: " +
          ", ".join(f"{k} {counts[k]} ({100 * counts[k] / total:.1f}%)" for k in
                    ("kept", "undetected", "outranked", "rendered", "unselected")), file=sys.stderr)


if __name__ == "__main__":
    main()
