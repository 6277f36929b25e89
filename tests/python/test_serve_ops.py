"""`kessel serve` for operations (issue 24): the probe, metrics, version and OpenAPI routes, 405 with
Allow, request ids and the access log, the language warning, and the access rules (Host, Origin,
bearer token, security headers)."""
import json
import subprocess
import time
from pathlib import Path

import pytest

from serve_harness import CLI, SAMPLES, Server, server  # server: the shared module fixture

pytestmark = pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")

ROUTES = ["/", "/review.js", "/review.css", "/health", "/healthz", "/readyz", "/metrics", "/version", "/openapi.json"]


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in /metrics")


def eventually(check, timeout=5.0):
    """check()'s first true value: a reply is counted and logged just after it is sent."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def test_probes_answer(server):
    status, headers, body = server.request("/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    status, _, body = server.request("/readyz")
    assert status == 200 and json.loads(body) == {"ready": True}
    status, _, body = server.request("/health")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_version_names_the_build(server):
    status, _, body = server.request("/version")
    v = json.loads(body)
    assert status == 200 and v["version"] and v["cpu_variant"] in v["cpu_variants_built"]
    cli = subprocess.run([CLI, "--version"], capture_output=True, text=True, timeout=30).stdout
    assert v["version"] in cli and v["cpu_variant"] in cli
    assert "centrality" in v["scorer"].lower()


def test_openapi_describes_every_route(server):
    status, headers, body = server.request("/openapi.json")
    doc = json.loads(body)
    assert status == 200 and doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == set(ROUTES) | {"/summarize", "/review"}
    assert "post" in doc["paths"]["/summarize"] and "get" not in doc["paths"]["/summarize"]
    assert {"400", "413", "503", "504"} <= set(doc["paths"]["/summarize"]["post"]["responses"])
    assert "Error" in doc["components"]["schemas"]


def test_metrics_counters_move_with_requests(server):
    _, headers, before = server.request("/metrics")
    assert headers["Content-Type"].startswith("text/plain; version=0.0.4")
    n = sum(1 for line in SAMPLES["zh"].read_text(encoding="utf-8").splitlines() if line.strip())
    assert server.request("/summarize", SAMPLES["zh"].read_text(encoding="utf-8"))[0] == 200
    after = eventually(lambda: (lambda t: t if '{route="/summarize",status="200"}' in t else None)(
        server.request("/metrics")[2]))
    assert metric(after, "kessel_dialogues_summarized_total") == metric(before, "kessel_dialogues_summarized_total") + n
    assert metric(after, "kessel_emotions_kept_total") > metric(before, "kessel_emotions_kept_total")
    assert 'kessel_http_requests_total{route="/summarize",status="200"}' in after
    assert 'kessel_http_request_duration_seconds_bucket{route="/summarize",le="+Inf"}' in after
    for name in ("kessel_constraint_bound_total", "kessel_in_flight_requests", "kessel_queue_length",
                 "kessel_model_load_seconds", "kessel_ready"):
        metric(after, name)
    assert 'kessel_build_info{version="' in after and 'cpu_variant="' in after


@pytest.mark.parametrize("method,path,allow", [("GET", "/summarize", "POST"), ("PUT", "/review", "POST"),
                                               ("POST", "/healthz", "GET, HEAD"), ("DELETE", "/metrics", "GET, HEAD")])
def test_wrong_methods_are_405_with_allow(server, method, path, allow):
    status, headers, body = server.request(path, b"" if method != "GET" else None, method=method)
    assert status == 405 and headers["Allow"] == allow
    assert headers["Content-Type"].startswith("application/json") and "not allowed" in json.loads(body)["error"]


def test_request_ids_are_echoed_or_made_and_logged(server):
    _, headers, _ = server.request("/healthz", headers={"X-Request-Id": "abc-123"})
    assert headers["X-Request-Id"] == "abc-123"
    _, headers, _ = server.request("/healthz", headers={"X-Request-Id": "bad id <script>"})
    made = headers["X-Request-Id"]
    assert made and made != "bad id <script>"
    _, headers, _ = server.request("/nope")
    assert headers["X-Request-Id"]
    def logged():
        return [r for r in (json.loads(line) for line in server.stderr().splitlines() if line.startswith("{"))
                if r["id"] == made]
    mine = eventually(logged)
    assert len(mine) == 1 and mine[0]["path"] == "/healthz" and mine[0]["status"] == 200
    assert set(mine[0]) >= {"time", "id", "method", "path", "status", "bytes", "ms"}


def test_security_headers_on_every_route(server):
    for path in ROUTES:
        status, headers, _ = server.request(path)
        assert status == 200, path
        csp = headers["Content-Security-Policy"]
        script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
        assert "'self'" in script and "unsafe-inline" not in script
        assert headers["X-Content-Type-Options"] == "nosniff"
    _, headers, page = server.request("/")
    assert "<script>" not in page  # the page's script is /review.js: the CSP forbids inline script


def test_the_report_displays_under_the_csp(server):
    # The report has no script, only inline style: the policy allows 'unsafe-inline' for style alone.
    status, headers, report = server.request("/review", SAMPLES["en"].read_text(encoding="utf-8"))
    assert status == 200 and "<script" not in report.lower()
    assert "style-src 'self' 'unsafe-inline'" in headers["Content-Security-Policy"]


def test_foreign_host_and_cross_origin_posts_are_refused(server):
    status, _, body = server.request("/healthz", headers={"Host": "attacker.example"})
    assert status == 403 and "DNS rebinding" in json.loads(body)["error"]
    assert server.request("/healthz", headers={"Host": f"localhost:{server.port}"})[0] == 200
    text = SAMPLES["en"].read_text(encoding="utf-8")
    status, _, body = server.request("/summarize", text, content_type="text/plain",
                                     headers={"Origin": "http://attacker.example"})
    assert status == 403 and "cross-origin" in json.loads(body)["error"]
    status, _, _ = server.request("/summarize", text, content_type="text/plain",
                                  headers={"Origin": f"http://127.0.0.1:{server.port}"})
    assert status == 200


def test_a_token_guards_every_route_but_the_probes(tmp_path):
    token = tmp_path / "token"
    token.write_text("s3cret-token\n")
    s = Server("--token-file", str(token))
    try:
        s.wait_ready()
        assert s.request("/healthz")[0] == 200
        assert s.request("/readyz")[0] == 200
        for path in ("/", "/version", "/metrics", "/health", "/openapi.json"):
            status, headers, body = s.request(path)
            assert status == 401 and headers["WWW-Authenticate"] == "Bearer" and "Bearer" in json.loads(body)["error"]
            assert s.request(path, headers={"Authorization": "Bearer s3cret-token"})[0] == 200
        body = SAMPLES["en"].read_text(encoding="utf-8")
        assert s.request("/summarize", body, headers={"Authorization": "Bearer wrong"})[0] == 401
        assert s.request("/summarize", body, headers={"Authorization": "Bearer s3cret-token"})[0] == 200
        doc = json.loads(s.request("/openapi.json", headers={"Authorization": "Bearer s3cret-token"})[2])
        assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    finally:
        s.close()


def test_a_public_bind_without_a_token_warns_loudly():
    s = Server(host="0.0.0.0")
    try:
        assert "WARNING" in s.stderr() and "--token-file" in s.stderr()
        assert s.request("/healthz", headers={"Host": "example.org"})[0] == 200  # no Host check off loopback
    finally:
        s.close()


def test_an_empty_token_file_is_refused(tmp_path):
    (tmp_path / "token").write_text("  \n")
    p = subprocess.run([CLI, "serve", "--port", "0", "--token-file", str(tmp_path / "token")],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode != 0 and "empty" in p.stderr


def test_a_language_the_model_was_not_trained_on_is_named(tmp_path):
    model = tmp_path / "en.safetensors"
    p = subprocess.run([CLI, "train", "--data", str(SAMPLES["en"]), "--out", str(model), "--members", "2",
                        "--epochs", "2", "--quiet"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    s = Server("--model", str(model))
    try:
        s.wait_ready()
        status, headers, body = s.request("/summarize", SAMPLES["zh"].read_text(encoding="utf-8"))
        assert status == 200
        assert "trained on en dialogues" in headers["X-Kessel-Warning"]
        records = [json.loads(line) for line in body.splitlines()]
        assert all("this dialogue is zh" in r["warnings"][0] for r in records)
        status, headers, body = s.request("/summarize", SAMPLES["en"].read_text(encoding="utf-8"))
        assert status == 200 and "X-Kessel-Warning" not in headers
        assert all("warnings" not in json.loads(line) for line in body.splitlines())
        assert json.loads(s.request("/version")[2])["model_languages"] == "en"
    finally:
        s.close()
