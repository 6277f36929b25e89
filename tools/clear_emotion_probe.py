#!/usr/bin/env python3
"""Does the summary keep a clear emotion word that the customer wrote? A check independent of the lexicons.

  PYTHONPATH=build/python /usr/bin/python3 tools/clear_emotion_probe.py --data FILE [--model M] [--misses]

The word lists below were written by hand for this probe (2026-12-03), from general knowledge of how
customers voice feelings, not from kessel's lexicons and not from reading summaries. A dialogue counts
when one of the words occurs in a customer turn; it is kept when the summary contains one of the words
that occur there. The printed share is the probe; `--misses` lists the dialogues that miss (it quotes
them, so the listing stays outside the repository).
"""
import argparse
import json
import re
import sys

import kessel

ZH = """生气 气死 气人 很气 愤怒 恼火 火大 无语 郁闷 失望 伤心 难过 委屈 崩溃 烦死 好烦 很烦 心烦 烦躁 着急 急死
担心 害怕 垃圾 差评 投诉 坑人 被坑 骗人 骗子 恶心 可恶 离谱 过分 太差 差劲 不满 满意 开心 高兴 太好了 感动 喜欢
无奈 头疼 糟心 晕 吐槽 抓狂 服了 醉了 呵呵 😡 😠 😤 😭 😢 😞 😔 😊 👍 [怒] [泪] [哭] [生气] [抓狂] [衰] [心]""".split()
EN = """angry furious mad annoyed annoying frustrated frustrating disappointed disappointing upset ridiculous
unacceptable terrible horrible awful worst hate disgusted disgusting pissed sad worried scared afraid
love happy great amazing thrilled excited glad appalling pathetic useless joke shocking fed-up
😡 😠 😤 😭 😢 😞 😔 😩 🙄 😊 😍 ❤️ 👍 :( :-( :)""".split()


def words_in(text, lang):
    low = text.lower()
    if lang == "zh":
        return {w for w in ZH if w in low}
    found = set()
    for w in (w.replace("-", " ") for w in EN):
        if w[0].isalpha():
            if re.search(r"\b" + re.escape(w) + r"\b", low):
                found.add(w)
        elif w in text:
            found.add(w)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--model")
    ap.add_argument("--misses", action="store_true")
    args = ap.parse_args()
    s = kessel.Summarizer(model=args.model) if args.model else kessel.Summarizer()
    with_words = kept = 0
    with open(args.data, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = s.summarize(line, explain=True)
            turns = rec["turns"]
            lang = "zh" if any("\u4e00" <= c <= "\u9fff" for t in turns for c in t["text"]) else "en"
            customer = set()
            for t in turns:
                if t["speaker"] == "customer":
                    customer |= words_in(t["text"], lang)
            if not customer:
                continue
            with_words += 1
            in_summary = {w for w in customer if w in words_in(rec["summary"], lang)}
            kept += bool(in_summary)
            if args.misses and not in_summary:
                print(f"{rec['id']}\tcustomer words {sorted(customer)}\n\tsummary: {rec['summary'][:300]}")
    print(f"{args.data}: {with_words} dialogues with a clear customer emotion word; the summary keeps one in "
          f"{kept} ({100 * kept / max(with_words, 1):.1f}%)", file=sys.stderr)


if __name__ == "__main__":
    main()
