"""Independent reference ROUGE for tests: ROUGE-1.5.5 semantics written from its description.

ROUGE-N: clipped n-gram hits over the whole summary (n-grams may span sentence breaks), F1 = 2PR/(P+R).
ROUGE-L (summary level): for every reference sentence, the union of its LCS positions with each
candidate sentence; a union token is a hit while both its remaining reference and candidate counts
are positive. LCS backtracking prefers stepping back in the reference on ties (as ROUGE-1.5.5).

Chinese (CSDS): strip, delete ASCII spaces then "<q>", every remaining character is a token; a
sentence ends after each "。" (split="period"), or after each "。" and an end-of-sentence token that
follows it (split="period-eos"), or the summary is one sentence (split="none").
English: lowercase [a-z0-9]+ words; the whole summary is one sentence, so ROUGE-L is the LCS of the
two texts (the variant that reproduces the published TweetSumm Lead-3 figure).
"""
import json
import re
from collections import Counter


def zh_sentences(text, split="period"):
    text = text.strip().replace(" ", "").replace("<q>", "")
    sents, cur = [], []
    for ch in text:
        cur.append(ch)
        if ch == "。" and split in ("period", "period-eos"):
            if split == "period-eos":
                cur.append(("eos",))  # a token no character equals
            sents.append(cur)
            cur = []
    if cur:
        sents.append(cur)
    return sents


def en_sentences(text):
    # English: the whole summary is one sentence (rouge-score's "rougeL": the LCS of the two texts).
    toks = re.findall(r"[a-z0-9]+", text.lower())
    return [toks] if toks else []


def _f(hits, n_cand, n_ref):
    p = hits / n_cand if n_cand else 0.0
    r = hits / n_ref if n_ref else 0.0
    f = 2 * p * r / (p + r) if hits and (p + r) else 0.0
    return p, r, f


def rouge_n(cand_sents, ref_sents, n):
    def grams(sents):
        flat = [t for s in sents for t in s]
        return Counter(tuple(flat[i:i + n]) for i in range(len(flat) - n + 1))
    c, r = grams(cand_sents), grams(ref_sents)
    hits = sum(min(k, c[g]) for g, k in r.items())
    return _f(hits, sum(c.values()), sum(r.values()))


def _lcs_mask(ref, cand):
    m, n = len(ref), len(cand)
    table = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m):
        for j in range(n):
            table[i + 1][j + 1] = table[i][j] + 1 if ref[i] == cand[j] else max(table[i][j + 1], table[i + 1][j])
    mask = [False] * m
    i, j = m, n
    while i and j:
        if ref[i - 1] == cand[j - 1]:
            mask[i - 1] = True
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return mask


def rouge_l(cand_sents, ref_sents):
    ref_left = Counter(t for s in ref_sents for t in s)
    cand_left = Counter(t for s in cand_sents for t in s)
    n_ref, n_cand = sum(ref_left.values()), sum(cand_left.values())
    hits = 0
    for ref in ref_sents:
        union = [False] * len(ref)
        for cand in cand_sents:
            union = [a or b for a, b in zip(union, _lcs_mask(ref, cand))]
        for tok, used in zip(ref, union):
            if used and ref_left[tok] > 0 and cand_left[tok] > 0:
                hits += 1
                ref_left[tok] -= 1
                cand_left[tok] -= 1
    return _f(hits, n_cand, n_ref)


def score(cand, ref, lang="zh", split="period"):
    seg = (lambda t: zh_sentences(t, split)) if lang == "zh" else en_sentences
    c, r = seg(cand), seg(ref)
    return {"rouge1": rouge_n(c, r, 1), "rouge2": rouge_n(c, r, 2), "rougeL": rouge_l(c, r)}


def corpus(cands, ref_lines, lang="zh", split="period"):
    """Mean over pairs of best-over-references and average-over-references F1 (x100)."""
    best = {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0}
    avg = dict(best)
    for cand, line in zip(cands, ref_lines):
        refs = json.loads(line) if line.startswith("[") and line.endswith("]") else [line]
        scores = [score(cand, r, lang, split) for r in refs]
        for k in best:
            best[k] += max(s[k][2] for s in scores) * 100 / len(cands)
            avg[k] += sum(s[k][2] for s in scores) / len(scores) * 100 / len(cands)
    return best, avg
