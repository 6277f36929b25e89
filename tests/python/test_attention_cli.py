"""`kessel bench attention` runs end to end and its --json document has the documented fields."""

import json
import os
import subprocess

import pytest

CLI = os.environ.get("KESSEL_CLI")


@pytest.mark.skipif(not CLI, reason="KESSEL_CLI is not set (run through ctest)")
def test_bench_attention_json():
    res = subprocess.run([CLI, "bench", "attention", "--quick", "--json", "--threads", "1",
                          "--heads", "2", "--dim", "16"],
                         capture_output=True, text=True, timeout=300, check=True)
    doc = json.loads(res.stdout)
    assert doc["config"] == {"B": 1, "H": 2, "D": 16, "threads": 1, "lengths": [128, 256],
                             "quick": True}
    assert [s["L"] for s in doc["sgemm"]] == [128, 256]
    cases = {(r["case"], r["L"]) for r in doc["results"]}
    for L in (128, 256):
        for case in ("fused softmax fwd", "fused fuzzy m=2 fwd", "fused fuzzy m=1.5 fwd",
                     "fused softmax fwd+bwd", "fused terms fwd", "fused causal softmax fwd",
                     "reference softmax fwd"):
            assert (case, L) in cases
    for r in doc["results"]:
        assert r["ms"] > 0 and r["gflops"] > 0 and r["pct_of_sgemm"] > 0
        if r["case"] in ("fused softmax fwd", "fused fuzzy m=2 fwd"):
            assert r["speedup_vs_reference"] > 0
    assert "bench attention" in res.stderr  # progress goes to stderr


@pytest.mark.skipif(not CLI, reason="KESSEL_CLI is not set (run through ctest)")
def test_bench_attention_rejects_bad_lengths():
    res = subprocess.run([CLI, "bench", "attention", "--lengths", "0"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode != 0 and "length 0" in res.stderr
