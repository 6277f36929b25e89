"""Mutation sweep over every reader of the `kessel` CLI.

Each case starts from a valid input (a bundled sample, a test fixture, or, when ../shared/data is
present, a few records of the real data sets), damages it at random (bytes deleted, flipped or
inserted: quotes, brackets, invalid UTF-8, NUL, numbers beyond double, NaN; spans duplicated; the
file truncated), and runs the command that reads it. Every run must end with exit code 0, or 3 (an
input error, README "Exit codes") and a named error; never "internal error" (also exit 3, told apart
by its message), a usage error (exit 2: the commands are fixed, only the file is damaged), a signal,
a timeout or a sanitizer report.

    /usr/bin/python3 tests/python/mutation_sweep.py --cli build/kessel --n 1000 --seed 1

test_mutation_sweep.py runs a short sweep in the test suite. Session 10's first long sweep found one
bug: a number beyond double ("1e9991") escaped every reader as nlohmann's out_of_range.
"""
import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading

SPECIAL = [b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'\xff', b'\xc3', b'\xf0\x9f', b'\x00', b'\n',
           b'\t', b'\r', b'\\u0000', b'\\ud83d', b'1e999', b'-1e400', b'-', b'nan', b'NaN', b'inf', b'null',
           b'true', b'""', b'99999999999999999999', b'\xe3\x80\x82', b'\xf0\x9f\x98\xa1', b'\xe2\x80\x8d',
           b'[\xe6\x80\x92]', b':(', b'#', b'4294967296', b'4611686018427387904', b'3e38', b'-0']


def mutate(data, rng):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op, pos = rng.random(), rng.randint(0, max(0, len(b) - 1))
        if op < 0.3 and b:
            del b[pos:pos + rng.randint(1, 8)]
        elif op < 0.6:
            b[pos:pos] = rng.choice(SPECIAL)
        elif op < 0.8 and b:
            b[pos] = rng.randint(0, 255)
        elif op < 0.9:
            start = rng.randint(0, len(b))
            b[pos:pos] = b[start:start + rng.randint(1, 200)]
        else:
            del b[pos:]
    return bytes(b)


# A labelled emotion set (tools/emotion_labels.py's compiled format) for the bundled zh samples:
# 气死我了 in zh-001's first turn, a longer expression over it (with the emoji), and a dialogue labelled as having none.
EMOTION_LABELS = (
    b'{"id": "zh-001", "expressions": [{"turn": 0, "start": 14, "end": 18, "emotion": "anger", "intensity": 3, '
    b'"strongest": true}, {"turn": 0, "start": 14, "end": 19, "emotion": "anger", "intensity": 2, "strongest": false}]}\n'
    b'{"id": "zh-002", "expressions": []}\n')


def read(path, lines=None):
    with open(path, "rb") as f:
        return f.read() if lines is None else b"".join(f.readlines()[:lines])


def tiny_model(cli, source, work):
    """A small EACA model trained on the bundled English samples (a 4 KB file, half of it header), so
    that the sweep damages a real model's header, offsets and weights."""
    path = os.path.join(work, "tiny.safetensors")
    if not os.path.exists(path):
        subprocess.run([cli, "train", "--data", os.path.join(source, "data", "samples", "dialogues_en.jsonl"),
                        "--members", "1", "--epochs", "1", "--hidden", "4", "--embed-dim", "2", "--buckets", "8",
                        "--no-compress", "--dev-fraction", "0.3", "--threads", "1", "--out", path],
                       check=True, capture_output=True, timeout=300)
    return read(path)


def cases(cli, source, data, work):
    """name -> (valid input bytes, command reading the file at path). Cases whose input is absent
    (the shared data sets) are left out and listed by the caller."""
    samples = {lang: os.path.join(source, "data", "samples", f"dialogues_{lang}.jsonl") for lang in ("zh", "en")}
    fixtures = os.path.join(source, "tests", "data")
    lexicon = os.path.join(source, "data", "lexicon")
    with open(os.path.join(work, "pred.txt"), "w") as f:
        f.write("the order is late\nrefund please\n")
    with open(os.path.join(work, "ref_zh.txt"), "w", encoding="utf-8") as f:
        f.write("用户:订单没到。\n客服:好的。\n")
    corpus = "我很生气\n太慢了气死我了\n谢谢客服\n无语了真是\n快递太慢\n" * 3
    with open(os.path.join(work, "corpus.txt"), "w", encoding="utf-8") as f:
        f.write(corpus)

    def dialogues(path):
        return lambda p: [[cli, "summarize", "--input", p, "--output", os.devnull, "--explain",
                           "--html", os.path.join(work, "r.html")],
                          [cli, "summarize", "--input", p, "--output", os.devnull, "--on-error", "skip"],
                          [cli, "analyze", "--data", p, "--on-error", "skip"],
                          [cli, "eval", "--data", p, "--on-error", "skip", "--bootstrap", "10"]]

    def one(*argv):
        return lambda p: [[a if a != "@" else p for a in argv]]

    en = ["--input", samples["en"], "--output", os.devnull]
    out = {
        "dialogues_en": (read(samples["en"]), dialogues(samples["en"])),
        "dialogues_zh": (read(samples["zh"]), dialogues(samples["zh"])),
        "hmm_model": (read(os.path.join(fixtures, "hmm", "casino.json")),
                      one(cli, "hmm", "loglik", "--model", "@", "--data", os.path.join(fixtures, "hmm", "casino_rolls.txt"))),
        "hmm_gaussian_model": (read(os.path.join(fixtures, "hmm", "gaussian2.json")),
                               one(cli, "hmm", "viterbi", "--model", "@", "--data", os.path.join(fixtures, "hmm", "gaussian2_obs.txt"))),
        "hmm_data": (read(os.path.join(fixtures, "hmm", "casino_rolls.txt"), 5),
                     one(cli, "hmm", "fit", "--model", os.path.join(fixtures, "hmm", "casino.json"), "--data", "@", "--max-iter", "3")),
        "hmm_gaussian_data": (read(os.path.join(fixtures, "hmm", "gaussian2_obs.txt"), 5),
                              one(cli, "hmm", "posterior", "--model", os.path.join(fixtures, "hmm", "gaussian2.json"), "--data", "@")),
        "cluster_csv": (read(os.path.join(fixtures, "iris.csv"), 30),
                        one(cli, "cluster", "-k", "3", "--columns", "0,1,2,3", "@")),
        "cluster_csv_gk": (read(os.path.join(fixtures, "iris.csv"), 30),
                           one(cli, "cluster", "-k", "2", "--method", "gk", "--columns", "sepal_length,petal_width", "@")),
        "rouge_references": (b'["the order is late", "order late"]\n["refund"]\n',
                             one(cli, "rouge", os.path.join(work, "pred.txt"), "@", "--lang", "en")),
        "rouge_zh_predictions": ("用户:订单没到。客服:已催。\n好的。\n".encode(),
                                 one(cli, "rouge", "@", os.path.join(work, "ref_zh.txt"))),
        "lexicon_tsv": (read(os.path.join(lexicon, "default_en.tsv"), 40),
                        one(cli, "summarize", "--lexicon", "tsv=@", *en)),
        "expand_seeds": (read(os.path.join(lexicon, "default_zh.tsv"), 40),
                         one(cli, "lexicon", "expand", "--seeds", "@", "--corpus", os.path.join(work, "corpus.txt"), "--min-count", "1")),
        "emotion_labels": (EMOTION_LABELS, one(cli, "eval", "--data", samples["zh"], "--emotion-labels", "@", "--bootstrap", "10")),
        # A damaged model file: a named error about the file (or, when only a weight changed, a
        # summary), never an allocation failure or an overflow.
        "eaca_model": (tiny_model(cli, source, work),
                       one(cli, "summarize", "--model", "@", *en)),
        "expand_corpus": (corpus.encode(),
                          one(cli, "lexicon", "expand", "--seeds", os.path.join(lexicon, "default_zh.tsv"), "--corpus", "@", "--min-count", "1")),
    }
    shared = {
        "tweetsumm": (os.path.join(data, "tweetsumm", "valid.jsonl"), lambda path: (read(path, 3), dialogues(path))),
        "csds": (os.path.join(data, "csds", "val.jsonl"), lambda path: (read(path, 3), dialogues(path))),
        "lexicon_dutir": (os.path.join(data, "lexicons", "dutir_zh", "dutir_emotion_ontology.csv"),
                          lambda path: (read(path, 30), one(cli, "summarize", "--lexicon", "dutir=@", "--input", samples["zh"], "--output", os.devnull))),
        "lexicon_nrc": (os.path.join(data, "lexicons", "nrc_emolex_en", "NRC-Emotion-Lexicon-Wordlevel-v0.92.txt"),
                        lambda path: (read(path, 60), one(cli, "summarize", "--lexicon", "nrc=@", *en))),
        "lexicon_emoji_emotion": (os.path.join(data, "lexicons", "emoji", "emoji-emotion-3.0.1.json"),
                                  lambda path: (read(path), one(cli, "summarize", "--lexicon", "emoji-emotion=@", *en))),
        "lexicon_emoticon": (os.path.join(data, "lexicons", "emoji", "emoticon-4.1.0.json"),
                             lambda path: (read(path), one(cli, "summarize", "--lexicon", "emoticon=@", *en))),
        "lexicon_emoji_sentiment": (os.path.join(data, "lexicons", "emoji", "Emoji_Sentiment_Data_v1.0.csv"),
                                    lambda path: (read(path, 30), one(cli, "summarize", "--lexicon", "emoji-sentiment=@", *en))),
    }
    missing = []
    for name, (path, make) in shared.items():
        if os.path.exists(path):
            out[name] = make(path)
        else:
            missing.append(name)
    return out, missing


def failure(result):
    """Why a finished run is a failure, or None."""
    err = result.stderr.decode("utf-8", "replace")
    if result.returncode not in (0, 3):
        return f"exit code {result.returncode}"
    for marker in ("internal error", "Sanitizer", "runtime error:", "terminate called"):
        if marker in err:
            return marker
    if result.returncode == 3 and "kessel: error: " not in err:
        return "exit code 3 without a 'kessel: error:' message"
    return None


def sweep(cli, n, seed, source, data, work, only=None, timeout=120):
    """Runs n mutated inputs; returns (failures, runs, missing cases). Each failure is
    (case, command, reason, path of the kept input, stderr tail)."""
    rng = random.Random(seed)
    table, missing = cases(cli, source, data, work)
    names = sorted(k for k in table if only is None or k in only)
    failures, runs = [], 0
    for i in range(n):
        name = rng.choice(names)
        valid, commands = table[name]
        path = os.path.join(work, f"input_{i}")
        with open(path, "wb") as f:
            f.write(mutate(valid, rng))
        bad = False
        for cmd in commands(path):
            runs += 1
            try:
                r = subprocess.run(cmd, capture_output=True, timeout=timeout)
                reason = failure(r)
                tail = r.stderr.decode("utf-8", "replace")[-400:]
            except subprocess.TimeoutExpired:
                reason, tail = f"timeout after {timeout} s", ""
            if reason:
                bad = True
                failures.append((name, " ".join(cmd[1:3]), reason, path, tail))
        if not bad:
            os.remove(path)
    return failures, runs, missing


class ServerUnderSweep:
    """`kessel serve --port 0` for the body sweep; its stderr is read on a thread (the access log must
    never fill the pipe and stall the server) and kept for the failure report."""

    def __init__(self, cli, *args):
        self.proc = subprocess.Popen([cli, "serve", "--port", "0", *args], stderr=subprocess.PIPE)
        self.stderr = []
        first = self.proc.stderr.readline().decode("utf-8", "replace")
        m = re.search(r"http://[^/\s]+:(\d+)/", first)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"kessel serve printed no address: {first!r}")
        self.port = int(m.group(1))
        self.stderr.append(first)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def post(self, path, body, timeout):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", path, body=body, headers={"Content-Type": "application/x-ndjson"})
            r = conn.getresponse()
            return r.status, r.getheader("Content-Type", ""), r.read()
        finally:
            conn.close()

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def server_failure(status, content_type, body):
    """Why a server answer to a damaged body is a failure, or None: 200 with JSONL, or a 4xx whose
    JSON {"error"} names what was wrong; never a 5xx, an internal error or a non-JSON error."""
    if status == 200:
        return None
    if status >= 500:
        return f"HTTP {status}: {body[:200]!r}"
    if "json" not in content_type:
        return f"HTTP {status} with Content-Type {content_type!r}"
    try:
        message = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return f"HTTP {status} without a JSON error: {body[:200]!r}"
    if "internal error" in message:
        return f"HTTP {status}: {message}"
    return None


def server_sweep(cli, n, seed, source, timeout=60):
    """Posts n damaged dialogue bodies to one server (/summarize, /summarize?explain=1, /review);
    returns (failures, runs). The server must answer each and be alive at the end: a crash, a hang or
    a sanitizer report is a failure."""
    rng = random.Random(seed)
    valid = [read(os.path.join(source, "data", "samples", f"dialogues_{lang}.jsonl")) for lang in ("zh", "en")]
    routes = ["/summarize", "/summarize?explain=1", "/review"]
    server = ServerUnderSweep(cli)
    failures, runs = [], 0
    try:
        for i in range(n):
            body = mutate(rng.choice(valid), rng)
            route = routes[i % len(routes)]
            runs += 1
            try:
                reason = server_failure(*server.post(route, body, timeout))
            except (OSError, http.client.HTTPException) as e:
                reason = f"no answer: {e!r}"
            if reason:
                failures.append(("server_body", route, reason, "", "".join(server.stderr[-5:])[-400:]))
            if server.proc.poll() is not None:
                failures.append(("server_body", route, f"the server exited ({server.proc.returncode})", "",
                                 "".join(server.stderr[-20:])[-1500:]))
                break
    finally:
        server.close()
    log = "".join(server.stderr)
    for marker in ("Sanitizer", "runtime error:", "terminate called"):
        if marker in log:
            failures.append(("server_body", "serve", marker, "", log[log.index(marker) - 200:][:1500]))
    return failures, runs


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default="build/kessel")
    ap.add_argument("--n", type=int, default=200, help="mutated inputs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--source", default=os.path.join(here, "..", ".."))
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data"))
    ap.add_argument("--keep", default=None, help="folder for the inputs that fail (default: a temporary one)")
    ap.add_argument("--server", type=int, default=0, metavar="N",
                    help="also post N damaged bodies to one `kessel serve`")
    args = ap.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="kessel_sweep_")
    os.makedirs(work, exist_ok=True)
    failures, runs, missing = sweep(os.path.abspath(args.cli), args.n, args.seed, args.source, args.data, work)
    if missing:
        print(f"left out (no data at {args.data}): {', '.join(missing)}", file=sys.stderr)
    if args.server:
        server_failures, server_runs = server_sweep(os.path.abspath(args.cli), args.server, args.seed, args.source)
        failures += server_failures
        runs += server_runs
    for name, cmd, reason, path, tail in failures:
        print(f"FAIL {name}: kessel {cmd}: {reason}; input kept at {path}\n{tail}")
    print(f"{args.n} mutated inputs, {runs} runs, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
