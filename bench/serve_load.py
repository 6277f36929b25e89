#!/usr/bin/python3
"""Load, soak, slow clients and ?explain=1 memory for `kessel serve`, on loopback (issue 24).

    /usr/bin/python3 bench/serve_load.py load  [--model M] [--connections 1,8,64] [--seconds 10] [--route healthz]
    /usr/bin/python3 bench/serve_load.py soak  [--model M] [--requests 100000]
    /usr/bin/python3 bench/serve_load.py slow  [--io-threads N]
    /usr/bin/python3 bench/serve_load.py explain

load: wrk (Debian's /usr/bin/wrk) posts one dialogue per request (the first sample dialogue of --lang, one
JSON object) at --connections connections for --seconds; prints p50, p99, req/s, non-2xx and socket
errors, and the CPU time (user + system) the server and wrk spent per answered request. soak: the
same until at least --requests have been answered, with the server's RSS
(/proc/PID/status VmRSS) after the warm-up, after the first tenth and at the end. slow: 10 connections
trickle one header line every 2 s while /healthz is asked every 0.25 s; prints the worst /healthz
time. explain: RSS before, peak (VmHWM) and after a 3.3 MB body of 500-turn dialogues of one word a turn
sent with ?explain=1, under --max-response-mb.
A fresh `kessel serve --port 0` per run; KESSEL_CLI picks the binary (default build/kessel).
"""

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = os.environ.get("KESSEL_CLI", str(ROOT / "build" / "kessel"))
SAMPLES = {lang: ROOT / "data" / "samples" / f"dialogues_{lang}.jsonl" for lang in ("en", "zh")}


class Server:
    def __init__(self, *args):
        self.proc = subprocess.Popen([CLI, "serve", "--port", "0", "--no-access-log", *args],
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            sys.exit(f"no address in {line!r}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and get(self.url + "/readyz")[0] != 200:
            time.sleep(0.05)

    def status(self, key):
        """A /proc/PID/status field in MiB (VmRSS, VmHWM)."""
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(rf"{key}:\s+(\d+) kB", text).group(1)) / 1024.0

    def cpu_seconds(self):
        """The server's user + system CPU time so far (/proc/PID/stat)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.proc.terminate()
        return self.proc.wait(timeout=30)


def get(url, timeout=5, data=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except http.client.IncompleteRead as e:  # a streamed reply ended by an error line (docs/serve.md)
        return -2, e.partial
    except OSError as e:
        return -1, str(e).encode()


def wrk(url, body, connections, seconds, threads=2, route="/summarize"):
    """wrk's figures: p50/p99 ms, req/s, requests, non-2xx, socket errors. A POST of `body`, or a GET
    of `route` when body is None."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                          f"wrk.body = [==[{body}]==]\n", encoding="utf-8")
        post = ["-s", str(script)] if body is not None else []
        out = subprocess.run(["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency",
                              *post, url + route], capture_output=True, text=True, check=True).stdout

    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]

    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"p50_ms": ms("50"), "p99_ms": ms("99"),
            "req_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "non_2xx": int(non2xx.group(1)) if non2xx else 0,
            "socket_errors": sum(map(int, socket_errors.groups())) if socket_errors else 0}


def statuses(s):
    """POST /summarize replies by status since the server started, from /metrics."""
    text = get(s.url + "/metrics")[1].decode()
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r'kessel_http_requests_total\{route="/summarize",status="(\d+)"\} (\d+)', text)}


def drain(s):
    """Waits until the requests of a finished wrk run (wrk closes its connections mid-request) are done."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = get(s.url + "/metrics")[1].decode()
        held = sum(int(m.group(1)) for m in re.finditer(r"^kessel_(?:in_flight_requests|queue_length) (\d+)$", text, re.M))
        if held == 0:
            return
        time.sleep(0.02)


def server_args(a):
    return (["--model", a.model] if a.model else []) + (["--workers", str(a.workers)] if a.workers else [])


def one_dialogue(a):
    """The first sample dialogue in --lang (a model's training language: zh for a CSDS model)."""
    return SAMPLES[a.lang].read_text(encoding="utf-8").splitlines()[0]


def run_load(a):
    """One server; one line per connection count of --connections (a comma list: 1,8,64)."""
    s = Server(*server_args(a))
    body, route = (None, "/healthz") if a.route == "healthz" else (one_dialogue(a), "/summarize")
    try:
        for connections in map(int, str(a.connections).split(",")):
            wrk(s.url, body, connections, 2, route=route)  # warm the connections and caches
            drain(s)
            cpu = s.cpu_seconds()
            wrk_cpu = os.times().children_user + os.times().children_system
            r = wrk(s.url, body, connections, a.seconds, route=route)
            # CPU per answered request: the server's, and wrk's (on the same cores: the load generator's
            # share of the machine is not the server's to use).
            r["server_cpu_ms_per_request"] = round((s.cpu_seconds() - cpu) * 1000.0 / r["requests"], 3)
            wrk_cpu = os.times().children_user + os.times().children_system - wrk_cpu
            r["wrk_cpu_ms_per_request"] = round(wrk_cpu * 1000.0 / r["requests"], 3)
            r["statuses"] = statuses(s)
            print(json.dumps({"scorer": a.model or "centrality", "route": route, "connections": connections,
                              "seconds": a.seconds, **r}), flush=True)
    finally:
        s.close()


def run_soak(a):
    s = Server(*server_args(a))
    body = one_dialogue(a)
    try:
        rss = {"after_warm_up": s.status("VmRSS")}
        connections = int(a.connections)
        done = wrk(s.url, body, connections, 5)["requests"]
        drain(s)
        rss["after_first"] = s.status("VmRSS")
        rss["first_requests"] = done
        rss["rounds"] = []  # (requests so far, MiB) after each 10 s round
        while done < a.requests:
            r = wrk(s.url, body, connections, 10)
            done += r["requests"]
            drain(s)
            rss["rounds"].append((done, round(s.status("VmRSS"), 1)))
            if r["non_2xx"] or r["socket_errors"]:
                print(json.dumps({"errors": r}), file=sys.stderr)
        rss["end"] = s.status("VmRSS")
        rss["peak"] = s.status("VmHWM")
        threads = int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{s.proc.pid}/status").read_text()).group(1))
    finally:
        code = s.close()
    growth = (rss["end"] - rss["after_first"]) / rss["after_first"] * 100.0
    print(json.dumps({"scorer": a.model or "centrality", "requests": done, "rss_mib": rss,
                      "growth_pct_after_first": round(growth, 2), "threads": threads, "exit_code": code}))


def run_slow(a):
    s = Server("--io-threads", str(a.io_threads), "--header-timeout-s", str(a.header_timeout_s))
    stop = threading.Event()

    def trickle():
        with socket.create_connection(("127.0.0.1", s.port)) as c:
            c.sendall(b"GET /healthz HTTP/1.1\r\n")
            i = 0
            while not stop.wait(2.0):
                try:
                    c.sendall(f"X-Slow-{i}: 1\r\n".encode())
                except OSError:
                    return
                i += 1

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(10)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    times, failures = [], 0
    end = time.monotonic() + a.seconds
    while time.monotonic() < end:
        start = time.monotonic()
        ok = get(s.url + "/healthz", timeout=3)[0] == 200
        times.append(time.monotonic() - start)
        failures += not ok
        time.sleep(0.25)
    stop.set()
    s.close()
    print(json.dumps({"io_threads": a.io_threads, "header_timeout_s": a.header_timeout_s,
                      "slow_connections": 10, "healthz_requests": len(times),
                      "failures": failures, "worst_ms": round(max(times) * 1000, 1),
                      "median_ms": round(sorted(times)[len(times) // 2] * 1000, 2)}))


def run_explain(a):
    # The probe's case: about 3.3 MB of dialogues with ?explain=1 (a 456 MB response before the cap).
    # 500 one-word turns a dialogue: the attention map grows as units squared, the body as units.
    short = [{"speaker": "customer" if t % 2 == 0 else "agent", "text": "Late!" if t % 2 == 0 else "Sorry."}
             for t in range(500)]
    body, i = [], 0
    while sum(map(len, body)) < 3_300_000:
        body.append(json.dumps({"id": f"x{i}", "turns": short}))
        i += 1
    s = Server(*server_args(a), "--max-response-mb", str(a.max_response_mb))
    try:
        before = s.status("VmRSS")
        status, reply = get(s.url + "/summarize?explain=1", timeout=600, data="\n".join(body).encode())
        peak = s.status("VmHWM")
        get(s.url + "/healthz")  # the next request trims the heap a large reply left
        after = s.status("VmRSS")
    finally:
        s.close()
    if status == -2:  # streamed, then cut: the last line says why
        status, error = "200, truncated", json.loads(reply.rstrip(b"\n").rsplit(b"\n", 1)[-1])
    else:
        error = json.loads(reply) if status != 200 else None
    print(json.dumps({"max_response_mb": a.max_response_mb, "body_mb": round(sum(map(len, body)) / 1e6, 2), "dialogues": len(body), "status": status,
                      "reply_bytes": len(reply), "error": error,
                      "rss_before_mib": round(before, 1), "peak_mib": round(peak, 1), "rss_after_mib": round(after, 1)}))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["load", "soak", "slow", "explain"])
    p.add_argument("--model", default="")
    p.add_argument("--lang", choices=["en", "zh"], default="en", help="language of the posted dialogue")
    p.add_argument("--connections", default="64", help="load: a connection count or a comma list (1,8,64)")
    p.add_argument("--route", choices=["summarize", "healthz"], default="summarize",
                   help="load: POST one dialogue to /summarize, or GET /healthz (the HTTP floor: no summary)")
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--requests", type=int, default=100_000)
    p.add_argument("--io-threads", type=int, default=128)
    p.add_argument("--header-timeout-s", type=float, default=10.0, help="slow: the server's --header-timeout-s")
    p.add_argument("--workers", type=int, default=0, help="the server's --workers (0: its default)")
    p.add_argument("--max-response-mb", type=float, default=64.0, help="explain: the server's cap")
    a = p.parse_args()
    {"load": run_load, "soak": run_soak, "slow": run_slow, "explain": run_explain}[a.mode](a)


if __name__ == "__main__":
    main()
