"""The gated key boost (boost_gate [H, 2D+1]: logit_ij += sigmoid(<w_q, q_i> + <w_k, k_j> + b_g)
key_boost_j; seed 004's debug table) against the PyTorch autograd rebuild in attention_torch_ref.py:
the forward and every gradient (q, k, v, key_boost and the gate) from kessel.attention_backward and
from the torch op, with causal and padding masks, odd sizes, both paths and thread counts; and the
errors for what it cannot do."""
import json
import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

kessel = pytest.importorskip("kessel")
torch = pytest.importorskip("torch")
import kessel.torch  # noqa: E402

from attention_torch_ref import attention_ref  # noqa: E402


def data(seed, B=2, H=3, Lq=7, Lk=11, D=5, Dv=4):
    g = np.random.default_rng(seed)
    q = g.uniform(-1, 1, (B, H, Lq, D)).astype(np.float32)
    k = g.uniform(-1, 1, (B, H, Lk, D)).astype(np.float32)
    v = g.uniform(-1, 1, (B, H, Lk, Dv)).astype(np.float32)
    dout = g.uniform(-1, 1, (B, H, Lq, Dv)).astype(np.float32)
    boost = g.uniform(-2, 2, (B, Lk)).astype(np.float32)
    gate = g.uniform(-1, 1, (H, 2 * D + 1)).astype(np.float32)
    return q, k, v, dout, boost, gate


CASES = [dict(), dict(causal=True), dict(key_lengths=np.array([9, 4])),
         dict(causal=True, key_lengths=np.array([11, 6]), similarity="cosine")]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("impl", ["fused", "reference"])
def test_forward_and_backward_equal_autograd(case, impl):
    spec = CASES[case]
    q, k, v, dout, boost, gate = data(20 + case)
    t = {n: torch.tensor(x, dtype=torch.float64, requires_grad=True)
         for n, x in dict(q=q, k=k, v=v, key_boost=boost, boost_gate=gate).items()}
    want = attention_ref(t["q"], t["k"], t["v"], key_boost=t["key_boost"], boost_gate=t["boost_gate"], **spec)["out"]
    want.backward(torch.tensor(dout, dtype=torch.float64))
    kw = dict(spec, key_boost=boost, boost_gate=gate, impl=impl)
    np.testing.assert_allclose(kessel.attention(q, k, v, **kw), want.detach().numpy(), rtol=1e-5, atol=1e-6)
    for threads in (1, 3):
        g = kessel.attention_backward(q, k, v, dout, threads=threads, **kw)
        for name in ("q", "k", "v", "key_boost", "boost_gate"):
            np.testing.assert_allclose(g["d" + name], t[name].grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
    assert np.abs(t["boost_gate"].grad.numpy()).max() > 1e-2  # the gate matters: not a comparison of zeros


def test_the_torch_op_learns_the_gate():
    q, k, v, dout, boost, gate = data(3)
    leaves = [torch.tensor(x, requires_grad=True) for x in (q, k, v, boost, gate)]
    out = kessel.torch.attention(leaves[0], leaves[1], leaves[2], key_boost=leaves[3], boost_gate=leaves[4],
                                 causal=True)
    out.backward(torch.tensor(dout))
    ref = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (q, k, v, boost, gate)]
    attention_ref(ref[0], ref[1], ref[2], key_boost=ref[3], boost_gate=ref[4], causal=True)["out"].backward(
        torch.tensor(dout, dtype=torch.float64))
    for got, want in zip(leaves, ref):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_errors_name_the_argument():
    q, k, v, _, boost, gate = data(4)
    with pytest.raises(ValueError, match="boost_gate has shape"):
        kessel.attention(q, k, v, key_boost=boost, boost_gate=gate[:, :-1])
    with pytest.raises(ValueError, match="there is no key_boost"):
        kessel.attention(q, k, v, boost_gate=gate)
    with pytest.raises(ValueError, match="normalizer='softmax'"):
        kessel.attention(q, k, v, key_boost=boost, boost_gate=gate, normalizer="fuzzy")
    bad = gate.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"boost_gate.*non-finite.*index 13"):
        kessel.attention(q, k, v, key_boost=boost, boost_gate=bad)
    with pytest.raises(ValueError, match="cannot be combined"):
        kessel.attention(q, k, v, key_boost=boost, boost_gate=gate, temperature="adaptive")


CLI = os.environ.get("KESSEL_CLI")
SAMPLES_ZH = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2])) / "data" / "samples" / "dialogues_zh.jsonl"


@pytest.mark.skipif(not CLI or not Path(CLI).exists(), reason="KESSEL_CLI not built")
def test_kessel_train_boost_gate_saves_the_gate_and_summarizes_with_it(tmp_path):
    out = tmp_path / "gate.safetensors"
    proc = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--dev", str(SAMPLES_ZH), "--out", str(out),
                           "--epochs", "2", "--members", "1", "--boost-gate", "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    raw = out.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert header["__metadata__"]["boost_gate"] == "true"
    attn_dim = int(header["__metadata__"]["attn_dim"])
    assert header["boost_gate"]["shape"] == [2 * (attn_dim + 2) + 1]
    summ = subprocess.run([CLI, "summarize", "--model", str(out), "--input", str(SAMPLES_ZH)],
                          capture_output=True, text=True, timeout=120)
    assert summ.returncode == 0, summ.stderr
    assert all(json.loads(line)["summary"] for line in summ.stdout.splitlines())
    for bad in (["--attention", "plain"], ["--emotion-balance", "0.5"], ["--adaptive-temperature", "1"]):
        p = subprocess.run([CLI, "train", "--data", str(SAMPLES_ZH), "--out", str(tmp_path / "x.safetensors"),
                            "--boost-gate", *bad], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "--boost-gate" in p.stderr, (bad, p.stderr)
