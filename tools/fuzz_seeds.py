#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/): small valid inputs of every format,
and the hostile inputs of issue 23 (NUL bytes, duplicate keys, deep nesting, huge shapes and
offsets). All text is written here or taken from the repository's own data/ (never ../shared/data).

    /usr/bin/python3 tools/fuzz_seeds.py [--cli build/kessel]

With --cli, the safetensors seeds include a tiny EACA model trained on data/samples by that binary.
"""
import argparse
import json
import struct
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fuzz" / "corpus"


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def kessel_line(i, text="我的快递还没到，太失望了"):
    return json.dumps({"id": f"d{i}", "turns": [{"speaker": "customer", "text": text, "time": 0},
                                                {"speaker": "agent", "text": "非常抱歉，马上为您查询。", "time": 30}]},
                      ensure_ascii=False)


def csds_line():
    return json.dumps({"tods_index": 1, "Dialogue": [
        {"speaker": "Q", "role": "用户", "utterance": "在吗，订单[订单编号]还没发货？", "truncated": False},
        {"speaker": "A", "role": "客服", "utterance": "亲亲，马上为您催促。", "truncated": False}],
        "FinalSumm": ["用户询问订单为什么还没发货。", "客服表示会催促。"], "UserSumm": ["用户询问发货。"],
        "AgentSumm": ["客服表示会催促。"], "ExtGoldTurnIDs": [0, 1]}, ensure_ascii=False)


def tweetsumm_line():
    return json.dumps({"conversation_id": "c1", "tweets": [
        {"is_agent": False, "sentences": ["@Support my order never came.", "Not happy!"]},
        {"is_agent": True, "sentences": ["Sorry to hear that, please DM us."]}],
        "abstractive_summaries": [["Customer says the order never came.", "Agent asks for a DM."]],
        "extractive_summaries": [[{"is_agent": False, "sentence_offsets": [0]}]]})


def dialogues():
    for name in ("dialogues_zh.jsonl", "dialogues_en.jsonl"):
        write("dialogues", name, (ROOT / "data" / "samples" / name).read_bytes())
    write("dialogues", "transcript.txt", (ROOT / "data" / "samples" / "transcript_zh_en.txt").read_bytes())
    write("dialogues", "transcript_odd.txt", "\ufeff---\n客服(小王)：\n  第一行\n[23:59] 用户: 还没到？\n[00:01] 用户: 还没到！！\n"
          "Agent [Sam]: ok\n#ID：x\n#id: x\nBot: hi\n")
    write("dialogues", "csds.jsonl", csds_line() + "\n")
    write("dialogues", "tweetsumm.jsonl", tweetsumm_line() + "\n")
    write("dialogues", "nul_between_records.jsonl", kessel_line(1) + "\x00" + kessel_line(2) + "\n")
    write("dialogues", "duplicate_key.jsonl", '{"id":"a","turns":[{"speaker":"customer","text":"x"}],"turns":[]}\n')
    write("dialogues", "duplicate_id.jsonl", kessel_line(1) + "\n" + kessel_line(1) + "\n")
    write("dialogues", "deep.jsonl", '{"id":"a","x":' + "[" * 300 + "]" * 300 + "}\n")
    write("dialogues", "ignored_field_many_objects.jsonl",
          '{"id":"a","x":[' + ",".join(["{}"] * 2000) + '],"turns":[{"speaker":"customer","text":"hi"}]}\n')
    write("dialogues", "bad_utf8.jsonl", b'{"id":"a","turns":[{"speaker":"customer","text":"\xff\xfe"}]}\n')
    write("dialogues", "big_turn_number.jsonl", '{"id":"a","turns":[{"speaker":"customer","text":"x","turn":18446744073709551615}]}\n')
    write("dialogues", "tods_index_string.jsonl", csds_line().replace('"tods_index": 1', '"tods_index": "1"') + "\n")


def server_body():
    write("server_body", "object.json", kessel_line(1))
    write("server_body", "array.json", "[" + kessel_line(1) + ",\n" + kessel_line(2) + "]")
    write("server_body", "pretty.json", json.dumps(json.loads(kessel_line(3)), indent=2, ensure_ascii=False))
    write("server_body", "jsonl.txt", kessel_line(1) + "\n" + kessel_line(2) + "\n")
    write("server_body", "empty_array.json", "[]")
    write("server_body", "many_objects.json", "[" + ",".join(["{}"] * 5000) + "]")
    write("server_body", "nul.json", kessel_line(1)[:20] + "\x00" + kessel_line(1)[20:])
    write("server_body", "form_like.txt", "id=a&explain=1&turns=x")
    write("server_body", "transcript.txt", "用户: 我的快递还没到，太失望了\n客服: 马上为您查询。\n---\nCustomer: not happy\n")
    write("server_body", "deep.json", "[" * 1000 + "]" * 1000)
    write("server_body", "surrogate.json", '{"id":"a","turns":[{"speaker":"customer","text":"\\ud800"}]}')


def safetensors_header(header):
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h)) + h


def safetensors(cli):
    write("safetensors", "empty_header.safetensors", safetensors_header({}))
    write("safetensors", "huge_shape.safetensors",
          safetensors_header({"compress.weight": {"dtype": "F32", "shape": [2 ** 62], "data_offsets": [0, 0]}}))
    write("safetensors", "overflow_shape.safetensors",
          safetensors_header({"w": {"dtype": "F32", "shape": [2 ** 32, 2 ** 32], "data_offsets": [0, 0]}}))
    write("safetensors", "overlap.safetensors",
          safetensors_header({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                              "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}) + b"\0" * 12)
    write("safetensors", "huge_header_length.safetensors", struct.pack("<Q", 2 ** 63) + b"{}")
    write("safetensors", "inf_weight.safetensors",
          safetensors_header({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}) + struct.pack("<f", 3e38))
    if cli:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "train.jsonl"
            data.write_bytes((ROOT / "data" / "samples" / "dialogues_zh.jsonl").read_bytes())
            model = Path(tmp) / "tiny.safetensors"
            # --no-compress: without the token-deletion model (262,145 weights) the file is a few KB.
            subprocess.run([cli, "train", "--data", str(data), "--out", str(model), "--members", "1", "--epochs", "1",
                            "--buckets", "16", "--embed-dim", "2", "--hidden", "2", "--no-compress",
                            "--dev-fraction", "0.3", "--threads", "1", "--quiet"], check=True)
            write("safetensors", "tiny_model.safetensors", model.read_bytes())


def lexicon():
    # The first byte picks the loader (fuzz_lexicon.cc): 0 tsv, 1 DUTIR, 2 NRC, 3 Emoji Sentiment,
    # 4 emoji emotion JSON, 5 emoticon JSON. The rows are written here in each format's layout.
    tsv = "\n".join((ROOT / "data" / "lexicon" / "default_zh.tsv").read_text(encoding="utf-8").splitlines()[:40])
    write("lexicon", "tsv.bin", b"\x00" + tsv.encode())
    write("lexicon", "tsv_en.bin", b"\x00" + "\n".join(
        (ROOT / "data" / "lexicon" / "default_en.tsv").read_text(encoding="utf-8").splitlines()[:40]).encode())
    write("lexicon", "dutir.bin", b"\x01" + "词语,词性种类,词义数,词义序号,情感分类,强度,极性,辅助情感分类,强度,极性\n"
          "生气,adj,1,1,NA,7,2,,,\n\"说\"\"好\"\"的\",idiom,1,1,PH,5,1,,,\n\"没有结尾,idiom,1,1,PH,5,1,,,\n".encode())
    write("lexicon", "nrc.bin", b"\x02" + b"angry\tanger\t1\nangry\tjoy\t0\nangry\tnegative\t1\nhappy\tpositive\t1\n")
    write("lexicon", "emoji_sentiment.bin", b"\x03" + "Emoji,Unicode codepoint,Occurrences,Position,Negative,Neutral,"
          "Positive,Unicode name,Unicode block\n😡,0x1f621,100,0.5,80,10,10,POUTING FACE,Emoticons\n".encode())
    write("lexicon", "emoji_json.bin", b"\x04" + json.dumps(
        [{"emoji": "😡", "name": "rage", "polarity": -3}, {"emoji": "😀", "name": "grinning", "polarity": 2}],
        ensure_ascii=False).encode())
    write("lexicon", "emoticon_json.bin", b"\x05" + json.dumps(
        [{"emoji": "😠", "emoticons": [">:(", ">:-("]}, {"emoji": "🙂", "emoticons": [":)"]}],
        ensure_ascii=False).encode())
    write("lexicon", "nul.bin", b"\x00\xe7\x94\x9f\xe6\xb0\x94\tanger\t0.8\t-1\n\x00x\tjoy\t1\t1\n")


def csv():
    write("csv", "small.csv", "x,y\n1,2\n3.5,-4e2\n5,6\n")
    write("csv", "quoted.csv", '"a","b"\n"1","2"\n')
    write("csv", "ragged.csv", "a,b\n1\n2,3,4\n")
    write("csv", "huge.csv", "a\n1e400\n")
    write("csv", "nul.csv", "a,b\n1,\x002\n")
    write("csv", "wide.csv", ",".join(f"c{i}" for i in range(64)) + "\n" + ",".join("1" for _ in range(64)) + "\n")


def hmm_json():
    write("hmm_json", "categorical.json", json.dumps(
        {"type": "categorical", "start": [0.6, 0.4], "transitions": [[0.7, 0.3], [0.4, 0.6]],
         "emissions": [[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]]}))
    write("hmm_json", "gaussian.json", json.dumps(
        {"type": "gaussian", "start": [0.5, 0.5], "transitions": [[0.9, 0.1], [0.2, 0.8]],
         "means": [[0.0, 1.0], [3.0, -1.0]], "variances": [[1.0, 0.5], [2.0, 1.0]]}))
    write("hmm_json", "full.json", json.dumps(
        {"type": "gaussian-full", "start": [1.0], "transitions": [[1.0]], "means": [[0.0, 0.0]],
         "covariances": [[[1.0, 0.2], [0.2, 1.0]]]}))
    write("hmm_json", "typo.json", '{"type":"categorical","start":[1],"transitons":[[1]],"emissions":[[1]]}')
    write("hmm_json", "not_stochastic.json", '{"type":"categorical","start":[2],"transitions":[[1]],"emissions":[[1]]}')


def jieba_tables():
    # The first byte picks the file kind (fuzz_jieba_tables.cc): 0 dict.txt, 1-3 prob_start/trans/emit.py.
    write("jieba_tables", "dict.bin", b"\x00" + "快递 100 n\n还没 50 d\n失望 30 a\n太 200\n".encode())
    write("jieba_tables", "start.bin", b"\x01" + b"P={'B': -0.26, 'E': -3.14e+100, 'M': -3.14e+100, 'S': -1.47}\n")
    write("jieba_tables", "trans.bin", b"\x02" + b"P={'B': {'E': -0.51, 'M': -0.91},\n 'E': {'B': -0.59, 'S': -0.80},\n"
          b" 'M': {'E': -0.33, 'M': -1.26},\n 'S': {'B': -0.72, 'S': -0.66}}\n")
    write("jieba_tables", "emit.bin", b"\x03" + "P={'B': {'\\u4e00': -3.6, '快': -7.1},\n'E': {'递': -6.0},\n"
          "'M': {'\\u4e00': -5.0},\n'S': {'太': -4.2}}\n".encode())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", help="a kessel binary, to train the tiny model seed")
    args = ap.parse_args()
    for make in (dialogues, server_body, lexicon, csv, hmm_json, jieba_tables):
        make()
    safetensors(args.cli)
    for d in sorted(CORPUS.iterdir()):
        print(f"{d.name}: {len(list(d.iterdir()))} seeds")


if __name__ == "__main__":
    main()
