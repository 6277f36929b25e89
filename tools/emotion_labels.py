#!/usr/bin/env python3
"""The labelled emotion set (issue 22): dump dialogues for reading, compile drafts into offset-only labels.

The labels under tests/data/emotion_labels/ hold ids and code point offsets only, never dialogue text:
the dialogues stay in ../shared/data and are read from there. Turn texts are rebuilt exactly as
kessel's reader builds them (src/text/dialogue_read.cc): a CSDS turn is its `utterance`; a TweetSumm
turn is its `sentences`, HTML-unescaped (&amp; &lt; &gt; &quot; &#39; only), joined by one space.

  dump     print dialogues (turn index, speaker, text) for a person to read and label
  compile  turn a draft, which names each expression by its words, into the offset-only label file

Draft format (JSON lines, kept outside the repository because it quotes the dialogues):
  {"id": "123", "expressions": [
     {"turn": 4, "text": "太垃圾了", "occurrence": 0, "emotion": "anger", "intensity": 3, "strongest": true}]}
`text` is the expression as written, covering its negation and degree words (不满意, not happy, 太垃圾了);
`occurrence` picks which match in the turn (0: the first). `emotion` is one of Plutchik's eight
(joy trust fear surprise sadness disgust anger anticipation); `intensity` 1 (mild), 2 (clear), 3
(strong). Exactly one expression per dialogue with expressions is `strongest`. A dialogue whose
customer expresses no emotion has "expressions": [] and is still a labelled dialogue.

Compiled format (one line per labelled dialogue):
  {"id": "123", "expressions": [{"turn": 4, "start": 10, "end": 14, "emotion": "anger",
                                  "intensity": 3, "strongest": true}]}
"""
import argparse
import html
import json
import sys

EMOTIONS = ("joy", "trust", "fear", "surprise", "sadness", "disgust", "anger", "anticipation")
ENTITIES = (("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"))


def unescape(s):
    """kessel's unescape_html: five entities, left to right, never re-scanning what it produced."""
    out, i = [], 0
    while i < len(s):
        for src, dst in ENTITIES:
            if s.startswith(src, i):
                out.append(dst)
                i += len(src)
                break
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def dialogues(path):
    """id -> list of (speaker, text) as kessel reads the file (csds or tweetsumm, detected per line)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            j = json.loads(line)
            if "Dialogue" in j:
                did = str(j.get("id", j.get("tods_index")))
                turns = [("customer" if t.get("speaker") == "Q" else "agent", t["utterance"]) for t in j["Dialogue"]]
            else:
                did = j["conversation_id"]
                turns = [("agent" if t["is_agent"] else "customer", " ".join(unescape(s) for s in t["sentences"]))
                         for t in j["turns"]]
            out[did] = turns
    return out


def cmd_dump(args):
    ds = dialogues(args.data)
    ids = [x.strip() for x in open(args.ids)] if args.ids else list(ds)
    ids = [x for x in ids if x][args.start:args.stop]
    for did in ids:
        print(f"=== dialogue {did}")
        for k, (speaker, text) in enumerate(ds[did]):
            print(f"[{k}] {speaker}: {text}")
        print()


def fail(where, msg):
    sys.exit(f"emotion_labels compile: {where}: {msg}")


def cmd_compile(args):
    ds = dialogues(args.data)
    seen, out = set(), []
    for path in args.drafts:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = f"{path}:{n}"
                d = json.loads(line)
                did = str(d["id"])
                if did not in ds:
                    fail(where, f"dialogue {did} is not in {args.data}")
                if did in seen:
                    fail(where, f"dialogue {did} labelled twice")
                seen.add(did)
                turns = ds[did]
                exprs = []
                for e in d["expressions"]:
                    t = e["turn"]
                    if not 0 <= t < len(turns):
                        fail(where, f"turn {t} outside [0, {len(turns)})")
                    if turns[t][0] != "customer":
                        fail(where, f"turn {t} is an agent turn; only the customer's emotions are labelled")
                    text, occ = turns[t][1], e.get("occurrence", 0)
                    at = -1
                    for _ in range(occ + 1):
                        at = text.find(e["text"], at + 1)
                        if at < 0:
                            fail(where, f"'{e['text']}' (occurrence {occ}) not found in turn {t}")
                    if e["emotion"] not in EMOTIONS:
                        fail(where, f"emotion '{e['emotion']}' is not one of {', '.join(EMOTIONS)}")
                    if e["intensity"] not in (1, 2, 3):
                        fail(where, f"intensity {e['intensity']} is not 1, 2 or 3")
                    exprs.append({"turn": t, "start": at, "end": at + len(e["text"]), "emotion": e["emotion"],
                                  "intensity": e["intensity"], "strongest": bool(e.get("strongest", False))})
                if exprs and sum(x["strongest"] for x in exprs) != 1:
                    fail(where, f"dialogue {did}: exactly one expression must be the strongest")
                out.append({"id": did, "expressions": exprs})
    with open(args.out, "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    print(f"emotion_labels: {len(out)} dialogues, {sum(1 for d in out if d['expressions'])} with emotion, "
          f"{sum(len(d['expressions']) for d in out)} expressions -> {args.out}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--data", required=True)
    d.add_argument("--ids", help="file of dialogue ids, one a line (default: every dialogue)")
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--stop", type=int, default=None)
    c = sub.add_parser("compile")
    c.add_argument("--data", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("drafts", nargs="+")
    args = p.parse_args()
    cmd_dump(args) if args.cmd == "dump" else cmd_compile(args)


if __name__ == "__main__":
    main()
