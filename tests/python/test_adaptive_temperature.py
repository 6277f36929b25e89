"""temperature="adaptive" (seed 004 §3.2: tau_i = 1 / (1 + c mean|q_i|)) against PyTorch eager built
from the formula: the forward, every gradient (q through tau, k, v, and the coefficient c) from
kessel.attention_backward and from the torch op, with causal and padding masks, odd sizes, both
paths and thread counts; and the errors for what it cannot do."""
import numpy as np
import pytest

kessel = pytest.importorskip("kessel")
torch = pytest.importorskip("torch")
import kessel.torch  # noqa: E402


def eager(q, k, v, c, causal=False, key_lengths=None, key_boost=None):
    """softmax(scale <q_i, k_j> (1 + c mean|q_i|) + boost, masked) v, in float64."""
    a = 1.0 + c * q.abs().mean(dim=-1, keepdim=True)
    logits = (q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5 * a
    if key_boost is not None:
        logits = logits + key_boost[:, None, None, :]
    Lq, Lk = q.shape[-2], k.shape[-2]
    keep = torch.ones(Lq, Lk, dtype=torch.bool)
    if causal:
        keep = torch.arange(Lk)[None, :] <= torch.arange(Lq)[:, None] + (Lk - Lq)
    keep = keep.expand(q.shape[0], q.shape[1], Lq, Lk).clone()
    if key_lengths is not None:
        for b, n in enumerate(key_lengths):
            keep[b, :, :, n:] = False
    logits = logits.masked_fill(~keep, float("-inf"))
    return torch.softmax(logits, dim=-1) @ v


def data(seed, B=2, H=3, Lq=7, Lk=11, D=5, Dv=4):
    g = np.random.default_rng(seed)
    q = g.uniform(-2, 2, (B, H, Lq, D)).astype(np.float32)
    q[:, :, ::2] *= 0.3  # rows of different sizes: different temperatures
    k = g.uniform(-1, 1, (B, H, Lk, D)).astype(np.float32)
    v = g.uniform(-1, 1, (B, H, Lk, Dv)).astype(np.float32)
    dout = g.uniform(-1, 1, (B, H, Lq, Dv)).astype(np.float32)
    return q, k, v, dout


CASES = [dict(), dict(causal=True), dict(key_lengths=np.array([9, 4])), dict(causal=True, key_lengths=np.array([11, 6]))]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("impl", ["fused", "reference"])
@pytest.mark.parametrize("c", [0.1, 0.7])
def test_forward_and_backward_equal_eager(case, impl, c):
    spec = CASES[case]
    q, k, v, dout = data(10 + case)
    boost = np.random.default_rng(case).uniform(-0.5, 0.5, (2, 11)).astype(np.float32)
    tq, tk, tv = (torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (q, k, v))
    tc = torch.tensor(c, dtype=torch.float64, requires_grad=True)
    want = eager(tq, tk, tv, tc, spec.get("causal", False), spec.get("key_lengths"),
                 torch.tensor(boost, dtype=torch.float64))
    want.backward(torch.tensor(dout, dtype=torch.float64))
    kw = dict(spec, temperature="adaptive", temperature_coef=c, key_boost=boost, impl=impl)
    out = kessel.attention(q, k, v, **kw)
    np.testing.assert_allclose(out, want.detach().numpy(), rtol=1e-5, atol=1e-6)
    for threads in (1, 2):
        g = kessel.attention_backward(q, k, v, dout, threads=threads, **kw)
        for name, t in (("dq", tq), ("dk", tk), ("dv", tv)):
            np.testing.assert_allclose(g[name], t.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
        np.testing.assert_allclose(g["dtemperature_coef"], tc.grad.item(), rtol=1e-4, atol=1e-5)
    assert abs(tc.grad.item()) > 1e-2  # the coefficient matters: the comparison is not of zeros


def test_the_torch_op_learns_the_coefficient():
    q, k, v, dout = data(3)
    leaves = [torch.tensor(x, requires_grad=True) for x in (q, k, v)]
    c = torch.tensor(0.2, requires_grad=True)
    out = kessel.torch.attention(*leaves, temperature="adaptive", temperature_coef=c, causal=True)
    out.backward(torch.tensor(dout))
    ref = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (q, k, v)]
    rc = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
    eager(*ref, rc, causal=True).backward(torch.tensor(dout, dtype=torch.float64))
    for got, want in zip(leaves + [c], ref + [rc]):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_adaptive_is_sharper_for_larger_queries():
    # The seed's intent: the same direction, a larger query, a more peaked row.
    q, k, v, _ = data(4, B=1, H=1, Lq=2, Lk=9)
    q[0, 0, 1] = 4.0 * q[0, 0, 0]
    w_fixed = kessel.attention_weights(q, k, v)
    w = kessel.attention_weights(q, k, v, temperature="adaptive", temperature_coef=0.5)
    entropy = lambda p: -(p * np.log(p)).sum(-1)
    assert (entropy(w[0, 0]) < entropy(w_fixed[0, 0])).all()  # a_i > 1 sharpens every row


@pytest.mark.parametrize("kw, message", [
    (dict(temperature="sharp"), "temperature must be a number or 'adaptive'"),
    (dict(temperature="adaptive", similarity="cosine"), "needs similarity='dot'"),
    (dict(temperature="adaptive", zscore=True), "without zscore"),
    (dict(temperature="adaptive", normalizer="fuzzy"), "needs normalizer='softmax'"),
    (dict(temperature="adaptive", temperature_coef=-1.0), "temperature_coef must be finite and >= 0"),
])
def test_what_it_cannot_do_is_a_named_error(kw, message):
    q, k, v, _ = data(5)
    with pytest.raises(ValueError, match=message):
        kessel.attention(q, k, v, **kw)


# ---- the emotion-ratio balance (seed 004 §4.2 step 3), the other query scaling --------------------

def balanced_eager(q, k, v, boost, ratio, gamma, causal=False):
    """softmax((1 - gamma rho_b) scale <q_i, k_j> + gamma rho_b boost_bj, masked) v."""
    w = (gamma * ratio)[:, None, None, None]
    logits = (1 - w) * (q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5 + w * boost[:, None, None, :]
    if causal:
        Lq, Lk = q.shape[-2], k.shape[-2]
        keep = torch.arange(Lk)[None, :] <= torch.arange(Lq)[:, None] + (Lk - Lq)
        logits = logits.masked_fill(~keep, float("-inf"))
    return torch.softmax(logits, dim=-1) @ v


@pytest.mark.parametrize("impl", ["fused", "reference"])
@pytest.mark.parametrize("causal", [False, True])
def test_emotion_ratio_balance_equals_eager(impl, causal):
    q, k, v, dout = data(20)
    g = np.random.default_rng(21)
    boost = g.uniform(0, 3, (2, 11)).astype(np.float32)
    ratio = np.array([0.1, 0.8], dtype=np.float32)
    tq, tk, tv, tb = (torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (q, k, v, boost))
    want = balanced_eager(tq, tk, tv, tb, torch.tensor(ratio, dtype=torch.float64), 0.5, causal)
    want.backward(torch.tensor(dout, dtype=torch.float64))
    kw = dict(key_boost=boost, emotion_ratio=ratio, balance=0.5, causal=causal, impl=impl)
    np.testing.assert_allclose(kessel.attention(q, k, v, **kw), want.detach().numpy(), rtol=1e-5, atol=1e-6)
    grads = kessel.attention_backward(q, k, v, dout, **kw)
    for name, t in (("dq", tq), ("dk", tk), ("dv", tv), ("dkey_boost", tb)):
        np.testing.assert_allclose(grads[name], t.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
    # the torch op: the boost learns through the balance
    leaves = [torch.tensor(x, requires_grad=True) for x in (q, k, v, boost)]
    out = kessel.torch.attention(*leaves[:3], key_boost=leaves[3], emotion_ratio=ratio, balance=0.5, causal=causal)
    out.backward(torch.tensor(dout))
    np.testing.assert_allclose(leaves[3].grad.numpy(), tb.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kw, message", [
    (dict(emotion_ratio=np.array([0.5, 0.5], np.float32)), "there is no key_boost"),
    (dict(emotion_ratio=np.array([0.5, 1.5], np.float32), key_boost=np.ones((2, 11), np.float32)), r"emotion_ratio\[1\] is 1.5"),
    (dict(emotion_ratio=np.array([0.5], np.float32), key_boost=np.ones((2, 11), np.float32)), r"must be \[B\] = \[2\]"),
    (dict(emotion_ratio=np.array([0.5, 0.5], np.float32), key_boost=np.ones((2, 11), np.float32), similarity="cosine"), "similarity='dot'"),
    (dict(balance=2.0), r"balance must be in \[0, 1\]"),
])
def test_balance_errors_name_the_argument(kw, message):
    q, k, v, _ = data(6)
    with pytest.raises(ValueError, match=message):
        kessel.attention(q, k, v, **kw)
