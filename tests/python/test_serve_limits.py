"""`kessel serve` under hostile or heavy load (issue 24): each defect the probe found is a test here.
Slow clients do not stop /healthz; a form content type is a dialogue body, not an 8 KiB form; absurd
Content-Lengths are answered at once; overflow is a 503, a deadline a 504; SIGTERM loses no accepted
request. Each test is bounded to a few seconds."""
import concurrent.futures
import http.client
import json
import os
import signal
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from serve_harness import CLI, Server, dialogue_json, server  # server: the shared module fixture

pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")


def status_line(reply):
    return reply.split(b"\r\n", 1)[0].decode()


def test_a_form_content_type_is_a_dialogue_body_of_any_size(server):
    # curl --data-binary's and urllib's default content type: it was parsed as a form, capped at 8 KiB
    # with a 413 blaming --max-body-mb, and a turn holding "&explain=1&" switched explain on.
    body = dialogue_json("form", 200, text="Parcel {i} is late &explain=1& and I am furious.")
    assert len(body.encode()) > 8193
    status, _, form = server.request("/summarize", body, content_type="application/x-www-form-urlencoded")
    assert status == 200
    record = json.loads(form)
    assert record["id"] == "form" and "attention" not in record
    assert server.request("/summarize", body, content_type="application/json")[2] == form


def test_a_multipart_body_is_refused_with_a_reason(server):
    status, _, body = server.request("/summarize", "--x\r\n\r\n", content_type="multipart/form-data; boundary=x")
    assert status == 415 and "multipart" in json.loads(body)["error"]


@pytest.mark.parametrize("length,status", [("9223372036854775807", 413), ("-1", 400),
                                           ("100000000000000000000000", 413), ("12abc", 400)])
def test_a_bad_content_length_is_answered_at_once(server, length, status):
    # These held the connection with no answer.
    start = time.monotonic()
    reply = server.raw(f"POST /summarize HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n".encode(),
                       timeout=3.0)
    assert time.monotonic() - start < 2.0
    assert status_line(reply).startswith(f"HTTP/1.1 {status}")
    assert "Content-Length" in json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]


@pytest.mark.parametrize("request_bytes,status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
    (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 400)])
def test_malformed_http_gets_a_json_error(server, request_bytes, status):
    reply = server.raw(request_bytes, timeout=3.0)
    assert status_line(reply).startswith(f"HTTP/1.1 {status}")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert b"X-Request-Id: " in head and json.loads(body)["error"]


def test_slow_clients_do_not_stop_healthz(server):
    # 10 connections each trickle a header line (the probe: every 2 s; here every 0.5 s for 3 s, which
    # holds a connection the same way: the read timeout is per receive). With the library's 8 workers
    # every /health timed out; now each slow client holds one of many I/O threads.
    stop = threading.Event()

    def trickle():
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\n")
            i = 0
            while not stop.wait(0.5):
                s.sendall(f"X-Slow-{i}: 1\r\n".encode())
                i += 1

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(10)]
    for t in threads:
        t.start()
    try:
        time.sleep(0.3)
        worst = 0.0
        end = time.monotonic() + 3.0
        while time.monotonic() < end:
            start = time.monotonic()
            assert server.request("/healthz", timeout=2)[0] == 200
            worst = max(worst, time.monotonic() - start)
            time.sleep(0.2)
        assert worst < 1.0
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)


def trickle_until_cut(port, seconds, every=0.25):
    """Sends a request line, then a header line every `every` s: the time until the server closes the
    connection, or None when it is still open after `seconds`."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(every)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        i = 0
        while time.monotonic() - start < seconds:
            try:
                s.sendall(f"X-Slow-{i}: 1\r\n".encode())
                if s.recv(4096) == b"":
                    return time.monotonic() - start
            except socket.timeout:
                pass
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - start
            i += 1
    return None


def test_headers_late_past_the_header_timeout_cut_the_connection():
    # The read timeout is per receive, so trickled header lines held a connection (and its I/O thread)
    # for as long as the client liked; --header-timeout-s bounds the request line and headers as a whole.
    s = Server("--header-timeout-s", "1.5", "--no-access-log")
    try:
        s.wait_ready()
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            cuts = [pool.submit(trickle_until_cut, s.port, 6.0) for _ in range(3)]
            # Meanwhile other clients are answered at once.
            for _ in range(5):
                start = time.monotonic()
                assert s.request("/healthz", timeout=2)[0] == 200
                assert time.monotonic() - start < 1.0
                time.sleep(0.1)
            times = [c.result() for c in cuts]
        assert all(t is not None and 1.4 < t < 3.0 for t in times), times
        assert "kessel_header_timeouts_total 3\n" in s.request("/metrics")[2]
        # A keep-alive client whose requests come promptly is not cut, whatever the connection's age.
        conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
        for _ in range(4):
            conn.request("GET", "/healthz")
            reply = conn.getresponse()
            reply.read()
            assert reply.status == 200
            time.sleep(0.6)
        conn.close()
        assert "kessel_header_timeouts_total 3\n" in s.request("/metrics")[2]
    finally:
        s.close()


def test_overflow_is_a_503_with_retry_after_never_a_hang():
    s = Server("--workers", "1", "--queue", "0", "--no-access-log")
    try:
        s.wait_ready()
        heavy = dialogue_json("heavy", 3000)
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda _: s.request("/summarize", heavy, timeout=20), range(4)))
        statuses = sorted(r[0] for r in results)
        assert 200 in statuses and 503 in statuses and set(statuses) <= {200, 503}
        busy = next(r for r in results if r[0] == 503)
        assert busy[1]["Retry-After"] == "1" and "--queue" in json.loads(busy[2])["error"]
        metrics = s.request("/metrics")[2]
        assert "kessel_overflow_total 0\n" not in metrics
    finally:
        s.close()


def test_a_request_past_its_deadline_is_a_504():
    # The deadline is long enough for the body (about 1 MB on loopback) to arrive, a body still
    # arriving then being a 408 (below), and far too short for the work: three dialogues of 5,000
    # sentences (about 1 s each here) whose records (no emotion: a few hundred bytes) stay below the
    # first streamed chunk, so the deadline, checked between two dialogues, is a 504 before any byte
    # of the reply.
    s = Server("--request-timeout-s", "0.5", "--no-access-log")
    try:
        s.wait_ready()
        many = "\n".join(dialogue_json(f"d{i}", 5000, text="Parcel {i} is on its way to the depot.") for i in range(3))
        status, headers, body = s.request("/summarize", many)
        assert status == 504 and headers["Content-Type"].startswith("application/json")
        assert "deadline" in json.loads(body)["error"]
        assert s.request("/healthz")[0] == 200
    finally:
        s.close()


def test_a_request_still_queued_at_its_deadline_is_a_504_and_never_run():
    # Summaries run as jobs on --workers compute threads; a job whose deadline passes while it waits in
    # the queue is answered 504 and its dialogues are never summarized.
    # The heavy request must start within its deadline and run well past it (5,000 units: about 1 s
    # here, 4 s under ASan), so the deadline is not too short for a loaded machine either.
    s = Server("--workers", "1", "--request-timeout-s", "0.5", "--no-access-log")
    try:
        s.wait_ready()
        heavy = dialogue_json("heavy", 5000)  # one dialogue: its deadline is checked before it only
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            first = pool.submit(s.request, "/summarize", heavy, timeout=120)
            for _ in range(600):  # until the heavy job runs on the only compute thread
                if "kessel_in_flight_requests 1\n" in s.request("/metrics")[2]:
                    break
                time.sleep(0.01)
            status, _, body = s.request("/summarize", dialogue_json("queued", 4))
            still_running = "kessel_in_flight_requests 1\n" in s.request("/metrics")[2]
            assert first.result()[0] == 200
        assert still_running  # the queued request was answered while the heavy one ran
        assert status == 504 and "waited past its deadline for a worker" in json.loads(body)["error"]
        metrics = s.request("/metrics")[2]
        assert "kessel_dialogues_summarized_total 1\n" in metrics  # the heavy one only
        assert "kessel_deadline_exceeded_total 1\n" in metrics
    finally:
        s.close()


def test_dialogues_per_request_and_the_response_size_are_capped():
    s = Server("--max-dialogues", "2", "--max-response-mb", "0.05", "--no-access-log")
    try:
        s.wait_ready()
        three = "\n".join(dialogue_json(f"d{i}", 4) for i in range(3))
        status, _, body = s.request("/summarize", three)
        assert status == 400 and "at most 2 a request (--max-dialogues)" in json.loads(body)["error"]
        two = "\n".join(dialogue_json(f"d{i}", 120) for i in range(2))
        assert s.request("/summarize", two)[0] == 200
        status, _, body = s.request("/summarize?explain=1", two)  # the attention map: ~120x120 numbers
        assert status == 413 and "--max-response-mb" in json.loads(body)["error"]
    finally:
        s.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_finishes_every_accepted_request_and_exits_0(sig):
    # There was no handler: SIGTERM ended the process at once and in-flight requests got an empty reply.
    # The grace period is generous: six heavy requests on one worker take ~8 s under ASan on 2 vCPUs,
    # and the default 10 s grace ran out in one CI run (a request cut, exit 1). What is tested is that
    # every accepted request is answered, not how fast.
    s = Server("--workers", "1", "--queue", "16", "--no-access-log", "--shutdown-grace-s", "120")
    s.wait_ready()
    heavy = dialogue_json("heavy", 1500)
    n = 6
    with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
        futures = [pool.submit(s.request, "/summarize", heavy, None, None, None, 30) for _ in range(n)]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # every request admitted or queued before the signal
            text = s.request("/metrics")[2]
            held = sum(int(line.split()[1]) for line in text.splitlines()
                       if line.startswith(("kessel_in_flight_requests ", "kessel_queue_length ")))
            if held == n:
                break
            time.sleep(0.01)
        assert held == n
        s.proc.send_signal(sig)
        results = [f.result() for f in futures]
    assert [r[0] for r in results] == [200] * n
    assert all(json.loads(r[2])["id"] == "heavy" for r in results)
    assert s.proc.wait(timeout=15) == 0
    assert sig.name in s.stderr()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", s.port), timeout=1).close()


def test_io_threads_start_with_need_not_all_at_once():
    # httplib's pool started all --io-threads (128) at once, and its wake-ups spread connections over
    # all of them: each thread's stack and malloc cache grew RSS as it got its first connection.
    s = Server("--no-access-log")
    try:
        s.wait_ready()
        for _ in range(30):  # one connection at a time
            with urllib.request.urlopen(s.url + "/healthz", timeout=10) as r:
                assert r.status == 200
        threads = len(os.listdir(f"/proc/{s.proc.pid}/task"))
        assert threads < 40, threads
    finally:
        s.close()


def test_a_body_trickled_past_the_request_deadline_gets_408():
    # Complete headers, then a body a few bytes at a time: each receive has --read-timeout-s, so the
    # body held its connection for as long as the client liked. The request's deadline bounds it.
    s = Server("--request-timeout-s", "1.5", "--no-access-log")
    try:
        s.wait_ready()
        body = dialogue_json("slow", 2).encode()
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", s.port)) as c:
            c.settimeout(0.2)
            c.sendall(b"POST /summarize HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            reply = b""
            for i in range(0, len(body), 4):
                try:
                    c.sendall(body[i:i + 4])
                    reply += c.recv(65536)
                except socket.timeout:
                    pass
                except (ConnectionResetError, BrokenPipeError):
                    break
                if reply or time.monotonic() - start > 6.0:
                    break
            c.settimeout(3.0)
            elapsed = time.monotonic() - start

            def whole(r):  # the head and as many body bytes as its Content-Length says
                head, sep, rest = r.partition(b"\r\n\r\n")
                length = [int(v) for k, _, v in (h.partition(b": ") for h in head.split(b"\r\n"))
                          if k.lower() == b"content-length"]
                return sep and length and len(rest) >= length[0]
            while not whole(reply):
                chunk = c.recv(65536)
                if not chunk:
                    break
                reply += chunk
        assert status_line(reply).startswith("HTTP/1.1 408"), reply[:200]
        assert b"Connection: close" in reply.split(b"\r\n\r\n", 1)[0]
        assert 1.4 < elapsed < 5.0, elapsed
        assert "--request-timeout-s" in json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]
        # The server is still up, and a prompt request is answered.
        assert s.request("/summarize", dialogue_json("prompt", 2))[0] == 200
    finally:
        s.close()
