"""kessel.segment against Python jieba 0.42.1 (`jieba.cut(s, HMM=True)`, Debian's python3-jieba).

Both must read the same tables: the test skips unless kessel.segmenter_source() names the directory
the imported jieba lives in. The agreement on CSDS (every utterance of val.jsonl) is the boundary F1
over Chinese text: cut positions next to a Han character, pooled over all utterances.
"""
import json
import logging
import os
import random
from pathlib import Path

import pytest

kessel = pytest.importorskip("kessel")
jieba = pytest.importorskip("jieba", reason="python3-jieba not installed (scripts/install-deps)")
from jieba.finalseg.prob_emit import P as EMIT  # noqa: E402

SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DATA = Path(os.environ.get("KESSEL_DATA", SRC / ".." / "shared" / "data"))
CSDS_VAL = DATA / "csds" / "val.jsonl"
JIEBA_DIR = os.path.dirname(os.path.abspath(jieba.__file__))

pytestmark = pytest.mark.skipif(
    kessel.segmenter_source() != "jieba:" + JIEBA_DIR,
    reason=f"kessel reads {kessel.segmenter_source()}, Python jieba {JIEBA_DIR}: different tables")

jieba.setLogLevel(logging.WARNING)


def jieba_cut(s):
    return list(jieba.cut(s, HMM=True))


def is_han(c):
    return "\u4e00" <= c <= "\u9fd5"


def cuts(words):
    """Positions between words, as code point offsets."""
    out, at = set(), 0
    for w in words[:-1]:
        at += len(w)
        out.add(at)
    return out


# Written for this test (not from any data set): placeholders, numbers, Latin, emoji, names and rare
# characters for the HMM, characters jieba's HMM has no emission for (镚: M only; 丂: none).
HARD = [
    "咨询订单号:[订单编号]，金额[金额]元",
    "我的iPhone12ProMax屏幕碎了，能保修吗？",
    "优惠券满100-20，折扣3.5%，还差1.2.3块",
    "您好😊👍🏻，请问有什么可以帮您",
    "王小明和李晓红在天宁站点等快递",
    "他给了我一个钢镚，我又找了两个钢镚",
    "丂丂丂天宁丂",
    "c#和C++哪个好学，AT&T是什么",
    "在吗\r\n在吗？？？",
    "  前后有空格  ",
    "京东自营的货什么时候能到啊啊啊啊啊",
    "运单号JD0123456789已签收",
    "退款--退货--换货",
    "這是繁體字的句子，還有ｆｕｌｌｗｉｄｔｈ和１２３",
    "",
]


@pytest.mark.parametrize("text", HARD)
def test_hard_sentences_match_jieba_word_for_word(text):
    assert kessel.segment(text) == jieba_cut(text)


def test_random_mixtures_match_jieba():
    """Han characters with full, partial and no HMM emissions, mixed with the block's other classes."""
    han = [chr(c) for c in range(0x4E00, 0x9FD6)]
    seen = lambda c: sum(c in EMIT[s] for s in "BMES")  # noqa: E731
    pools = [[c for c in han if seen(c) == 4]] * 3 + [[c for c in han if 0 < seen(c) < 4],
                                                      [c for c in han if seen(c) == 0],
                                                      list("abcXYZ0123456789.%-+#&_ ，。！？[]😊")]
    rng = random.Random(22)
    mismatches = []
    for _ in range(5000):
        s = "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(1, 30)))
        if kessel.segment(s) != jieba_cut(s):
            mismatches.append(s)
    assert not mismatches, f"{len(mismatches)} of 5000 differ, e.g. {mismatches[:3]!r}"


@pytest.mark.skipif(not CSDS_VAL.exists(), reason=f"{CSDS_VAL} absent (real data lives in ../shared/data or $KESSEL_DATA)")
def test_agrees_with_jieba_on_csds_val():
    utterances = [t["utterance"] for line in CSDS_VAL.read_text(encoding="utf-8").splitlines() if line.strip()
                  for t in json.loads(line)["Dialogue"]]
    tp = n_kessel = n_jieba = identical = 0
    for u in utterances:
        k, j = kessel.segment(u), jieba_cut(u)
        assert "".join(k) == u
        identical += k == j
        chinese = {p for p in cuts(k) | cuts(j) if is_han(u[p - 1]) or is_han(u[p])}
        ck, cj = cuts(k) & chinese, cuts(j) & chinese
        tp += len(ck & cj)
        n_kessel += len(ck)
        n_jieba += len(cj)
    f1 = 2 * tp / (n_kessel + n_jieba) if n_kessel + n_jieba else 1.0
    print(f"CSDS val: {len(utterances)} utterances, boundary F1 {f1:.5f} over Chinese text, "
          f"identical word lists {identical / len(utterances):.5f}")
    assert f1 >= 0.99
