"""Starts `kessel serve --port 0` for the serve tests and talks to it: urllib for whole requests, raw
sockets where the test needs bytes that urllib will not send (bad Content-Length, a trickled header).
Standard error is drained on a thread (the access log writes a line per request)."""
import os
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CLI = os.environ.get("KESSEL_CLI")
SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = {lang: SRC / "data" / "samples" / f"dialogues_{lang}.jsonl" for lang in ("zh", "en")}


class Server:
    def __init__(self, *args, host="127.0.0.1"):
        self.proc = subprocess.Popen([CLI, "serve", "--port", "0", "--host", host, *args],
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace")
        self.stderr_lines = []
        while True:  # the address line; a warning may come before it
            line = self.proc.stderr.readline()
            assert line, f"the server ended: {''.join(self.stderr_lines)}"
            self.stderr_lines.append(line)
            m = re.search(r"http://[^:]+:(\d+)/", line)
            if m:
                break
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line)

    def stderr(self):
        return "".join(self.stderr_lines)

    def request(self, path, body=None, method=None, content_type=None, headers=None, timeout=30):
        """(status, headers, text) of one request."""
        data = body.encode() if isinstance(body, str) else body
        req = urllib.request.Request(self.url + path, data=data, method=method or ("POST" if data is not None else "GET"))
        if content_type:
            req.add_header("Content-Type", content_type)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode()

    def raw(self, data, timeout=5.0):
        """The raw reply to bytes sent on a new connection, read until the server closes or `timeout`."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(data)
            reply = b""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                reply += chunk
                if b"\r\n\r\n" in reply and _complete(reply):
                    break
            return reply

    def wait_ready(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.request("/readyz")[0] == 200:
                return
            time.sleep(0.05)
        raise AssertionError("/readyz never answered 200")

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)


def _complete(reply):
    head, _, body = reply.partition(b"\r\n\r\n")
    m = re.search(rb"(?i)content-length:\s*(\d+)", head)
    return m is not None and len(body) >= int(m.group(1))


def dialogue_json(did, n_turns, text="Parcel {i} is late and I am furious about it."):
    import json
    return json.dumps({"id": did, "turns": [{"speaker": "customer" if i % 2 == 0 else "agent",
                                             "text": text.format(i=i)} for i in range(n_turns)]})


@pytest.fixture(scope="module")
def server():
    """One `kessel serve` with the defaults per test module that imports this fixture, ready (warm-up
    done) before its first test, stopped after its last."""
    s = Server()
    s.wait_ready()
    yield s
    s.close()
