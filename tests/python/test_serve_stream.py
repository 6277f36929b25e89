"""`kessel serve` streams long POST /summarize replies (issue 24): the records are sent as they are made
(chunked), a bad record anywhere in the body is still a 400 before anything is sent, and an error once
the reply has started ends it with an error line and no chunked terminator. No test here times
anything."""
import json
import socket
import time
from pathlib import Path

import pytest

from serve_harness import CLI, Server, dialogue_json, server  # server: the shared module fixture

pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")

HEAD_BYTES = 64 * 1024  # SummaryStream::kHeadBytes: made before the reply starts


def many(n, turns=12):
    return "\n".join(dialogue_json(f"d{i}", turns) for i in range(n))


def post_raw(port, path, body):
    """(head, raw body bytes) of one POST read until the server closes the connection."""
    data = body.encode()
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
               f"Content-Length: {len(data)}\r\n\r\n").encode() + data
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(request)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    head, _, rest = reply.partition(b"\r\n\r\n")
    return head.decode(), rest


def dechunk(raw):
    """The chunked body's bytes and whether it ended with the terminating chunk."""
    out = b""
    while raw:
        size_line, _, raw = raw.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return out, True
        out, raw = out + raw[:size], raw[size + 2:]
    return out, False


def test_a_long_reply_is_streamed_record_by_record(server):
    body = many(400)
    head, raw = post_raw(server.port, "/summarize", body)
    assert head.startswith("HTTP/1.1 200") and "Transfer-Encoding: chunked" in head
    assert "Content-Length" not in head
    text, complete = dechunk(raw)
    assert complete and len(text) > HEAD_BYTES
    records = [json.loads(line) for line in text.decode().splitlines()]
    assert [r["id"] for r in records] == [f"d{i}" for i in range(400)]
    status, headers, first = server.request("/summarize", many(3))  # a short reply: sent whole
    assert status == 200 and headers["Content-Length"] and "Transfer-Encoding" not in headers
    assert [json.loads(line) for line in first.splitlines()] == records[:3]
    log = [json.loads(line) for line in server.stderr().splitlines() if line.startswith('{"')]
    streamed = [entry for entry in log if entry["path"] == "/summarize" and entry["bytes"] == len(text)]
    assert streamed and streamed[-1]["status"] == 200  # the access log counts the streamed bytes


def test_a_bad_record_anywhere_is_a_400_before_anything_is_sent(server):
    body = many(400) + '\n{"id": "bad", "turns": [{"speaker": "customer"}]}'
    status, headers, reply = server.request("/summarize", body)
    assert status == 400 and headers["Content-Type"].startswith("application/json")
    assert "request:401" in json.loads(reply)["error"]


def test_an_error_after_the_reply_started_ends_it_with_an_error_line_and_no_terminator():
    s = Server("--max-response-mb", "0.15", "--no-access-log")
    try:
        s.wait_ready()
        head, raw = post_raw(s.port, "/summarize", many(1000))
        assert head.startswith("HTTP/1.1 200") and "Transfer-Encoding: chunked" in head
        text, complete = dechunk(raw)
        assert not complete  # a client sees a truncated transfer, never a complete one
        lines = text.decode().splitlines()
        last = json.loads(lines[-1])
        assert last["status"] == 413 and "--max-response-mb" in last["error"]
        assert len(text) - len(lines[-1]) - 1 <= 0.15 * 1024 * 1024  # only records within the cap
        assert all("id" in json.loads(line) for line in lines[:-1])
        metrics = s.request("/metrics")[2]
        assert 'kessel_http_requests_total{route="/summarize",status="413"} 1' in metrics
        assert s.request("/healthz")[0] == 200
    finally:
        s.close()


def test_a_stalled_reader_of_a_long_stream_does_not_hold_the_only_worker():
    # Summaries run on compute threads; a long stream's records are made there a chunk at a time and
    # written from the connection's I/O thread. Before, the stream held its worker while it wrote, so a
    # client that stopped reading kept every other summary waiting (here: the only worker, until the
    # send timed out).
    s = Server("--workers", "1", "--write-timeout-s", "60", "--request-timeout-s", "120",
               "--max-response-mb", "256", "--no-access-log")
    try:
        s.wait_ready()
        body = many(STALLED_DIALOGUES, turns=40).encode()
        request = (f"POST /summarize?explain=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.settimeout(120)
        stalled.connect(("127.0.0.1", s.port))
        stalled.sendall(request)  # and read nothing yet: the server's sends block once the buffers fill
        idle = False
        for _ in range(600):  # the worker goes idle while the stalled reply still waits to be sent
            metrics = s.request("/metrics")[2]
            if "kessel_in_flight_requests 0\n" in metrics and "kessel_queue_length 0\n" in metrics:
                idle = True
                break
            time.sleep(0.05)
        assert idle
        status, _, reply = s.request("/summarize", many(2), timeout=30)
        assert status == 200 and [json.loads(line)["id"] for line in reply.splitlines()] == ["d0", "d1"]
        raw = b""
        while chunk := stalled.recv(1 << 20):
            raw += chunk
        stalled.close()
        head, _, rest = raw.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"Transfer-Encoding: chunked" in head
        text, complete = dechunk(rest)
        assert complete and len(text) > 5 * 1024 * 1024  # more than the socket buffers hold (4 MiB)
        ids = [json.loads(line)["id"] for line in text.decode().splitlines()]
        assert ids == [f"d{i}" for i in range(STALLED_DIALOGUES)]
    finally:
        s.close()


STALLED_DIALOGUES = 300
