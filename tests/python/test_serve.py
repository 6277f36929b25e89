"""`kessel serve`: the HTTP front end returns what `kessel summarize` returns, serves the review page,
answers bad requests with a 400 that names the line and field, and is safe under concurrent requests."""
import concurrent.futures
import json
import os
import re
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = {lang: SRC / "data" / "samples" / f"dialogues_{lang}.jsonl" for lang in ("zh", "en")}

pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


class Server:
    def __init__(self, *args):
        # No access log: stderr is read for the address line only (test_serve_ops.py reads the log).
        self.proc = subprocess.Popen([CLI, "serve", "--port", "0", "--no-access-log", *args], stderr=subprocess.PIPE,
                                     text=True)
        line = self.proc.stderr.readline()  # "kessel serve: <scorer> on http://127.0.0.1:<port>/ ..."
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, f"no address in {line!r}"
        self.url = f"http://127.0.0.1:{m.group(1)}"

    def request(self, path, body=None, method=None, content_type=None):
        data = body.encode() if isinstance(body, str) else body
        req = urllib.request.Request(self.url + path, data=data, method=method or ("POST" if data is not None else "GET"))
        if content_type:
            req.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type", ""), e.read().decode()

    def close(self):
        self.proc.terminate()
        # scripts/tsan sets KESSEL_TEST_SLOWDOWN: the ThreadSanitizer binary drains its threads slower.
        self.proc.wait(timeout=10 * float(os.environ.get("KESSEL_TEST_SLOWDOWN", "1")))


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.close()


def lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cli_records(path, *args):
    p = subprocess.run([CLI, "summarize", "--input", str(path), *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return lines(p.stdout)


def test_health_names_the_scorer_and_lexicon(server):
    status, ctype, body = server.request("/health")
    assert status == 200 and ctype.startswith("application/json")
    health = json.loads(body)
    assert health["status"] == "ok"
    assert "centrality" in health["scorer"].lower()
    assert health["lexicon"].startswith("default:")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_summarize_returns_the_cli_records(server, lang):
    status, ctype, body = server.request("/summarize", SAMPLES[lang].read_text(encoding="utf-8"))
    assert status == 200 and "ndjson" in ctype
    assert lines(body) == cli_records(SAMPLES[lang])
    status, _, body = server.request("/summarize?explain=1", SAMPLES[lang].read_text(encoding="utf-8"))
    assert status == 200
    assert lines(body) == cli_records(SAMPLES[lang], "--explain")
    assert all("attention" in r for r in lines(body))


def test_one_object_or_an_array_is_accepted(server):
    dialogues = [json.loads(line) for line in SAMPLES["en"].read_text(encoding="utf-8").splitlines() if line.strip()]
    expected = cli_records(SAMPLES["en"])
    status, _, body = server.request("/summarize", json.dumps(dialogues[0], indent=2))
    assert status == 200 and lines(body) == expected[:1]
    status, _, body = server.request("/summarize", json.dumps(dialogues, indent=1))
    assert status == 200 and lines(body) == expected


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_one_line_object_is_answered_as_the_same_object_pretty_printed(server, lang):
    # One line is read by the dialogue reader directly; a pretty-printed object is parsed and
    # re-dumped first (serve_body.cc). The replies are the same bytes.
    first = SAMPLES[lang].read_text(encoding="utf-8").splitlines()[0]
    pretty = json.dumps(json.loads(first), indent=2, ensure_ascii=False)
    expected = server.request("/summarize?explain=1", pretty)
    assert expected[0] == 200
    for body in (first, first + "\n", first + "\r\n\r\n", "  " + first + " \t", json.dumps(json.loads(first))):
        assert server.request("/summarize?explain=1", body) == expected


def test_review_page_and_report(server):
    status, ctype, page = server.request("/")
    assert status == 200 and ctype.startswith("text/html")
    assert "<textarea" in page and '<script src="review.js">' in page  # no inline script (the CSP)
    script = server.request("/review.js")[2]
    assert "post('summarize?explain=1'" in script and "post('review'" in script  # the page's two routes
    status, ctype, report = server.request("/review", SAMPLES["zh"].read_text(encoding="utf-8"))
    assert status == 200 and ctype.startswith("text/html")
    first = cli_records(SAMPLES["zh"])[0]
    assert "kessel summaries" in report
    assert first["sentences"][0]["text"].split(":", 1)[1][:4] in report  # the summary is on the page


@pytest.mark.parametrize("body,status,message", [
    ('{"id": "x", "turns": [{"speaker": "boss", "text": "hi"}]}', 400, 'request:1: turns[0].speaker'),
    ('{"id": "a", "turns": [{"speaker": "customer", "text": "ok"}]}\n{"id": "b", "turns": []}', 400, "request:2"),
    ("not json at all", 400, "request:1"),
    ("", 400, "holds no dialogue"),
    ("  \n ", 400, "holds no dialogue"),
    ("[]", 400, "empty array: it holds no dialogue"),
    ('{"id": "x", "id": "y", "turns": [{"speaker": "customer", "text": "hi"}]}', 400, 'duplicate key "id"'),
    ("[" * 300 + "]" * 300, 400, "nested deeper than 256 levels"),
    ('{"id": "x", "turns": [{"speaker": "customer", "text": "hi", "time": -2e400}]}', 400,
     "request: number out of range: -2e400 in turns[0].time"),
    ('{"id": "x", "turns": [{"speaker": "customer", "text": "hi"}]}\n{"id": "y", "id": "z", "turns": []}',
     400, 'request:2: record: duplicate key "id"'),
])
def test_bad_requests_name_the_line_and_field(server, body, status, message):
    got, ctype, text = server.request("/summarize", body)
    assert got == status and ctype.startswith("application/json")
    assert message in json.loads(text)["error"]


def test_invalid_utf8_is_a_400(server):
    body = b'{"id": "x", "turns": [{"speaker": "customer", "text": "bad \xff byte"}]}'
    got, _, text = server.request("/summarize", body)
    assert got == 400
    assert "UTF-8" in json.loads(text)["error"]


def test_unknown_endpoints_are_404(server):
    got, _, text = server.request("/nope")
    assert got == 404 and "no such endpoint" in json.loads(text)["error"]


def test_concurrent_requests_get_the_same_answers(server):
    bodies = [SAMPLES[lang].read_text(encoding="utf-8") for lang in ("zh", "en")] * 8
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda b: server.request("/summarize", b), bodies))
    assert all(r[0] == 200 for r in results)
    assert {r[2] for r in results[0::2]} == {results[0][2]}
    assert {r[2] for r in results[1::2]} == {results[1][2]}


def test_body_limit_and_options():
    s = Server("--max-body-mb", "0.001", "--ranker", "lead", "--max-sentences", "2")
    try:
        got, _, text = s.request("/summarize", "x" * 5000)
        assert got == 413 and "too large" in json.loads(text)["error"]
        assert "lead" in json.loads(s.request("/health")[2])["scorer"].lower()
        got, _, body = s.request("/summarize", SAMPLES["en"].read_text(encoding="utf-8").splitlines()[0])
        assert got == 200
        assert lines(body) == cli_records(SAMPLES["en"], "--ranker", "lead", "--max-sentences", "2")[:1]
    finally:
        s.close()


def test_bad_options_fail_before_listening(tmp_path):
    p = subprocess.run([CLI, "serve", "--port", "0", "--model", str(tmp_path / "none.safetensors")],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode != 0 and "none.safetensors" in p.stderr
    p = subprocess.run([CLI, "serve", "--port", "70000"], capture_output=True, text=True, timeout=30)
    assert p.returncode != 0 and "--port" in p.stderr


def test_a_dialogue_beyond_the_sentence_limit_is_refused_before_any_work():
    # The limit bounds a request's memory where the body size cannot (the model-free ranker holds a
    # [U, U] matrix): 400 naming the dialogue, for /summarize and /review alike; at the limit it runs.
    s = Server("--max-dialogue-sentences", "50")
    try:
        def body(n, did):
            return json.dumps({"id": did, "turns": [{"speaker": "customer" if i % 2 else "agent",
                                                     "text": f"Parcel {i} is late."} for i in range(n)]})
        for path in ("/summarize", "/review"):
            status, _, text = s.request(path, body(51, "long") + "\n" + body(4, "short"))
            assert status == 400
            assert json.loads(text)["error"] == ("request:1: dialogue 'long' has 51 sentences; this server "
                                                 "takes at most 50 (--max-dialogue-sentences)")
        status, _, text = s.request("/summarize", body(50, "edge"))
        assert status == 200 and lines(text)[0]["id"] == "edge"
    finally:
        s.close()


def test_a_nul_byte_is_a_400_naming_the_line_and_the_server_stays_up(server):
    # The JSON library took the NUL for the end of the line: dialogue "b" was dropped, status 200.
    a = '{"id": "a", "turns": [{"speaker": "customer", "text": "first"}]}'
    b = '{"id": "b", "turns": [{"speaker": "customer", "text": "second"}]}'
    for body in (a + "\x00" + b + "\n", "[" + a + ",\x00" + b + "]"):
        got, ctype, text = server.request("/summarize", body)
        assert got == 400 and ctype.startswith("application/json")
        assert "request:1: record: NUL byte (0x00) at byte offset" in json.loads(text)["error"]
    assert server.request("/health")[0] == 200


@pytest.mark.parametrize("value,attention", [("1", True), ("true", True), ("0", False), ("false", False)])
def test_explain_takes_true_false_1_0(server, value, attention):
    got, _, body = server.request(f"/summarize?explain={value}", SAMPLES["en"].read_text(encoding="utf-8"))
    assert got == 200
    assert all(("attention" in r) == attention for r in lines(body))


@pytest.mark.parametrize("value", ["yes", "False", "2", ""])
def test_explain_refuses_anything_else(server, value):
    # "?explain=false" turned explain on: anything but "0" did.
    got, ctype, text = server.request(f"/summarize?explain={value}", SAMPLES["en"].read_text(encoding="utf-8"))
    assert got == 400 and ctype.startswith("application/json")
    assert json.loads(text)["error"] == f"request: ?explain={value}: expected true, false, 1 or 0"


def test_repeated_dialogue_ids_are_a_400(server):
    a = '{"id": "a", "turns": [{"speaker": "customer", "text": "first"}]}'
    got, _, text = server.request("/summarize", a + "\n" + a + "\n")
    assert got == 400
    assert 'request:2: id: "a" is also the id of line 1' in json.loads(text)["error"]


def test_a_large_body_of_small_objects_is_answered_at_once(server):
    # Issue 23: the strict parser was quadratic in the number of objects of a list (a 300 KB body took
    # 3.7 s, an 11 MB one did not finish in 150 s). 100,000 objects in an ignored field: linear now
    # (docs/benchmarks.md has the throughput); the request's 30 s timeout is generous on purpose.
    turns = '[{"speaker": "customer", "text": "My parcel is late."}]'
    body = '{"id": "big", "turns": ' + turns + ', "extra": [' + ",".join(["{}"] * 100000) + "]}"
    got, _, text = server.request("/summarize", body, content_type="application/json")
    assert got == 200 and lines(text)[0]["id"] == "big"
    # Sent as a form (urllib's and curl -d's default) it was refused beyond 8 KiB; a body is a dialogue
    # body whatever its content type (test_serve_limits.py has the regression test).
    got, _, text = server.request("/summarize", body)
    assert got == 200 and lines(text)[0]["id"] == "big"
