"""kessel.torch.attention (python/kessel/torch.py) against PyTorch autograd of the same formulas.

References, both float64 PyTorch with autograd on the same float32 inputs:
- plain eager formulas written here (softmax(QK^T/sqrt(D) + terms) V, and the fuzzy membership
  (d2 + eps)^(-1/(m-1)) normalized over the visible keys), for the cases they cover;
- attention_torch_ref.attention_ref, the step-by-step rebuild of include/kessel/attention.h, for every
  mask and score term.
Error metric per tensor: max|a - b| / (floor + max|b|) (test_attention_parity.py). Forward <= 1e-5
(floor 1e-6), gradients <= 1e-4 (floor 1e-2; the scalars dm and dtime_decay, sums over all B*H*Lq
rows, get the floor per row, as in test_attention_parity.grad_floor).

gradcheck: kessel's op is float32, and torch.autograd.gradcheck is meant for float64 (its central
differences in float32 lose ~1e-4 to rounding). So (1) gradcheck runs on the float64 reference
formulas, proving their autograd gradients right, and the parity tests hold kessel's gradients to
them at 1e-4; (2) gradcheck also runs on the kessel op itself in float32, with eps = 1e-3 and
atol = 1e-3, rtol = 1e-2 (what float32 central differences of O(1) outputs resolve).
"""

import math
import warnings

import numpy as np
import pytest
import torch

import kessel
import kessel.torch as kt
from attention_torch_ref import attention_ref
from test_attention_parity import GRAD_FLOOR, err

FWD_TOL = 1e-5
GRAD_TOL = 1e-4


def make(seed, B, H, Lq, Lk, D, Dv=None):
    """float32 q, k, v as leaves requiring grad; |q|, |k| ~ D^(1/4) keeps logits O(sqrt(D))."""
    g = torch.Generator().manual_seed(seed)
    s = D ** -0.25
    q = (torch.randn(B, H, Lq, D, generator=g) * s).requires_grad_()
    k = (torch.randn(B, H, Lk, D, generator=g) * s).requires_grad_()
    v = torch.randn(B, H, Lk, Dv or D, generator=g).requires_grad_()
    return q, k, v


def as_f64_leaf(t):
    return t.detach().double().requires_grad_(t.requires_grad)


def compare(out, grads, ref_out, ref_grads, rows, label=""):
    """out/grads from kessel, ref_* from the float64 reference; grads are {name: tensor}."""
    e = err(out.detach().numpy(), ref_out.detach().numpy())
    assert e <= FWD_TOL, f"{label} out err {e:.3g}"
    assert set(grads) == set(ref_grads), (label, sorted(grads), sorted(ref_grads))
    for name, g in grads.items():
        assert g is not None and ref_grads[name] is not None, (label, name)
        floor = GRAD_FLOOR * rows if name in ("m", "time_decay") else GRAD_FLOOR
        e = err(g.numpy(), ref_grads[name].numpy(), floor=floor)
        assert e <= GRAD_TOL, f"{label} d{name} err {e:.3g}"


def run_both(q, k, v, spec, ref_fn, seed=0):
    """kessel op and reference on the same inputs; loss = sum(out * R). Returns what compare takes."""
    tensors = {"q": q, "k": k, "v": v}
    tensors.update({n: t for n, t in spec.items() if isinstance(t, torch.Tensor) and t.requires_grad})
    out = kt.attention(q, k, v, **spec)
    r = torch.randn(out.shape, generator=torch.Generator().manual_seed(seed + 99))
    (out * r).sum().backward()
    grads = {n: t.grad.clone() for n, t in tensors.items()}
    ref_leaves = {n: as_f64_leaf(t) for n, t in tensors.items()}
    ref_spec = {n: ref_leaves.get(n, t) for n, t in spec.items()}
    ref_spec = {n: (t.double() if isinstance(t, torch.Tensor) and t.is_floating_point()
                    and n not in ref_leaves else t) for n, t in ref_spec.items()}
    ref_out = ref_fn(ref_leaves["q"], ref_leaves["k"], ref_leaves["v"], ref_spec)
    (ref_out * r.double()).sum().backward()
    ref_grads = {n: t.grad for n, t in ref_leaves.items()}
    return out, grads, ref_out, ref_grads


# ---- plain eager formulas -------------------------------------------------------------------------

def eager_softmax(q, k, v, spec):
    """softmax(Q K^T / sqrt(D) / temperature + bias + key_boost, causal) V."""
    D = q.shape[-1]
    logits = q @ k.transpose(-1, -2) / math.sqrt(D) / spec.get("temperature", 1.0)
    if "bias" in spec:
        logits = logits + spec["bias"]
    if "key_boost" in spec:
        logits = logits + spec["key_boost"][:, None, None, :]
    if spec.get("causal"):
        Lq, Lk = logits.shape[-2:]
        hidden = torch.ones(Lq, Lk, dtype=torch.bool).triu(1 + Lk - Lq)
        logits = logits.masked_fill(hidden, -math.inf)
    return torch.softmax(logits, -1) @ v


def eager_fuzzy(q, k, v, spec):
    """w_ij = (d2_ij + eps)^(-1/(m-1)) exp(key_boost_j), normalized over j (no exact matches)."""
    m = spec["m"]
    d2 = ((q[..., :, None, :] - k[..., None, :, :]) ** 2).sum(-1)
    logw = -torch.log(d2 + spec.get("fuzzy_eps", 1e-12)) / (m - 1.0)
    if "key_boost" in spec:
        logw = logw + spec["key_boost"][:, None, None, :]
    return torch.softmax(logw, -1) @ v


def header_ref(q, k, v, spec):
    spec = {n: t for n, t in spec.items() if n != "threads"}
    return attention_ref(q, k, v, **spec)["out"]


@pytest.mark.parametrize("Lq,Lk", [(1, 1), (7, 13), (65, 129), (129, 64)])
def test_softmax_matches_eager(Lq, Lk):
    q, k, v = make(1, 2, 3, Lq, Lk, 16, 12)
    for causal in (False, True):
        if causal and Lq > Lk:
            continue
        spec = {"causal": causal, "temperature": 0.8}
        compare(*run_both(q, k, v, spec, eager_softmax), rows=2 * 3 * Lq, label=f"causal={causal}")
        for t in (q, k, v):
            t.grad = None


@pytest.mark.parametrize("m", [1.3, 2.0, 3.5])
@pytest.mark.parametrize("Lq,Lk", [(7, 13), (65, 129)])
def test_fuzzy_matches_eager_with_learned_m(m, Lq, Lk):
    q, k, v = make(2, 2, 2, Lq, Lk, 16)
    mt = torch.tensor(m, requires_grad=True)
    boost = torch.randn(2, Lk, generator=torch.Generator().manual_seed(3)).mul(0.5).requires_grad_()
    spec = {"normalizer": "fuzzy", "m": mt, "key_boost": boost, "fuzzy_eps": 1e-6}
    out, grads, ref_out, ref_grads = run_both(q, k, v, spec, eager_fuzzy)
    assert abs(float(grads["m"])) > 1e-3  # dm is compared, not vacuous
    compare(out, grads, ref_out, ref_grads, rows=2 * 2 * Lq, label=f"m={m}")


def test_score_terms_learnable():
    B, H, Lq, Lk, D = 2, 2, 33, 70, 16
    q, k, v = make(4, B, H, Lq, Lk, D)
    g = torch.Generator().manual_seed(5)
    bias = (torch.randn(1, H, Lq, Lk, generator=g) * 0.5).requires_grad_()
    rel_bias = (torch.randn(H, 10, generator=g) * 0.5).requires_grad_()
    key_boost = (torch.randn(B, Lk, generator=g) * 0.5).requires_grad_()
    q_times = torch.cumsum(torch.rand(B, Lq, generator=g) + 0.5, 1)
    k_times = torch.cumsum(torch.rand(B, Lk, generator=g) + 0.5, 1) - 10.0
    for normalizer, mode in [("softmax", "additive"), ("fuzzy", "multiplicative"),
                             ("fuzzy", "additive"), ("softmax", "multiplicative")]:
        for t in (q, k, v, bias, rel_bias, key_boost):
            t.grad = None
        spec = {"normalizer": normalizer, "bias": bias, "rel_bias": rel_bias,
                "key_boost": key_boost, "alibi_slopes": torch.tensor([0.1, 0.02]),
                "times": (q_times, k_times), "time_decay": torch.tensor(0.05, requires_grad=True),
                "time_decay_mode": mode, "rel_max_distance": 40}
        if normalizer == "fuzzy":
            spec["m"] = torch.tensor(1.8, requires_grad=True)
        out, grads, ref_out, ref_grads = run_both(q, k, v, spec, header_ref)
        assert abs(float(grads["time_decay"])) > 1e-3
        compare(out, grads, ref_out, ref_grads, rows=B * H * Lq, label=f"{normalizer}/{mode}")


def test_time_decay_learned_from_zero():
    """time_decay = 0 keeps the terms out of the forward, yet its gradient is there."""
    B, H, L, D = 1, 2, 40, 16
    q, k, v = make(6, B, H, L, L, D)
    times = torch.cumsum(torch.rand(B, L, generator=torch.Generator().manual_seed(7)) + 0.5, 1)
    lam = torch.tensor(0.0, requires_grad=True)
    spec = {"times": times, "time_decay": lam, "causal": True}
    out, grads, ref_out, ref_grads = run_both(q, k, v, spec, header_ref)
    assert abs(float(grads["time_decay"])) > 1e-3
    compare(out, grads, ref_out, ref_grads, rows=B * H * L)


MASKS = {
    "causal": lambda B, H, Lq, Lk, g: {"causal": True},
    "padding": lambda B, H, Lq, Lk, g: {"key_lengths": torch.tensor([Lk, Lk // 2])},
    "window_lag": lambda B, H, Lq, Lk, g: {"window": 6, "min_lag": 1},
    "chunk": lambda B, H, Lq, Lk, g: {"chunk_size": 5, "causal": True},
    "mask_allowed": lambda B, H, Lq, Lk, g: {
        "mask": torch.rand(B, 1, Lq, Lk, generator=g) < 0.8,
        "allowed_keys": (torch.rand(B, Lk, generator=g) < 0.9).to(torch.int32)},
}


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("normalizer", ["softmax", "fuzzy"])
def test_masks(mask, normalizer):
    B, H, Lq, Lk, D = 2, 2, 29, 37, 16
    q, k, v = make(8, B, H, Lq, Lk, D)
    spec = MASKS[mask](B, H, Lq, Lk, torch.Generator().manual_seed(9))
    spec["normalizer"] = normalizer
    if normalizer == "fuzzy":
        spec["m"] = torch.tensor(1.6, requires_grad=True)
    compare(*run_both(q, k, v, spec, header_ref), rows=B * H * Lq, label=mask)


@pytest.mark.parametrize("similarity", ["cosine", "constrained_cosine", "neg_sq_euclidean"])
def test_other_similarities_and_zscore(similarity):
    q, k, v = make(10, 1, 2, 31, 45, 16)
    for zscore in (False, True):
        for t in (q, k, v):
            t.grad = None
        spec = {"similarity": similarity, "zscore": zscore, "beta": 0.3}
        compare(*run_both(q, k, v, spec, header_ref), rows=62, label=f"{similarity} {zscore}")


def test_ranks_2_and_3():
    q, k, v = make(11, 1, 1, 9, 14, 8)
    for rank in (2, 3):
        qs, ks, vs = (t.detach().reshape(t.shape[4 - rank:]).requires_grad_() for t in (q, k, v))
        out = kt.attention(qs, ks, vs, causal=True)
        assert out.shape == qs.shape[:-1] + (vs.shape[-1],)
        out.sum().backward()
        ref = eager_softmax(*(t.detach().double().reshape(1, 1, *t.shape[-2:]).requires_grad_()
                              for t in (qs, ks, vs)), {"causal": True})
        assert err(out.detach().numpy(), ref.detach().reshape(out.shape).numpy()) <= FWD_TOL
        assert qs.grad.shape == qs.shape


# ---- gradcheck --------------------------------------------------------------------------------------

def test_gradcheck_float64_reference():
    """The reference formulas' autograd gradients, including dm and dtime_decay, are right."""
    g = torch.Generator().manual_seed(12)
    q, k, v = (torch.randn(1, 2, 5, 4, generator=g, dtype=torch.float64) * 0.7 for _ in range(3))
    times = torch.cumsum(torch.rand(1, 5, generator=g, dtype=torch.float64) + 0.5, 1)
    boost = torch.randn(1, 5, generator=g, dtype=torch.float64) * 0.5
    m = torch.tensor(1.7, dtype=torch.float64)
    lam = torch.tensor(0.2, dtype=torch.float64)
    leaves = [t.clone().requires_grad_() for t in (q, k, v, boost, m, lam)]

    def fuzzy(q, k, v, boost, m, lam):
        return attention_ref(q, k, v, normalizer="fuzzy", m=m, key_boost=boost, times=times,
                             time_decay=lam, causal=True, fuzzy_eps=1e-6)["out"]

    assert torch.autograd.gradcheck(fuzzy, leaves)
    assert torch.autograd.gradcheck(
        lambda q, k, v, boost: eager_softmax(q, k, v, {"key_boost": boost, "causal": True}),
        leaves[:4])


def test_gradcheck_kessel_op_float32():
    g = torch.Generator().manual_seed(13)
    q, k, v = (torch.randn(1, 2, 6, 4, generator=g) * 0.7 for _ in range(3))
    boost = torch.randn(1, 6, generator=g) * 0.5
    bias = torch.randn(1, 2, 6, 6, generator=g) * 0.5
    times = torch.cumsum(torch.rand(1, 6, generator=g) + 0.5, 1)
    m, lam = torch.tensor(1.7), torch.tensor(0.2)
    leaves = [t.clone().requires_grad_() for t in (q, k, v, boost, bias, m, lam)]

    def op(q, k, v, boost, bias, m, lam):
        return kt.attention(q, k, v, normalizer="fuzzy", m=m, key_boost=boost, bias=bias,
                            times=times, time_decay=lam, causal=True, fuzzy_eps=1e-6)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not a double precision floating point": on purpose
        assert torch.autograd.gradcheck(op, leaves, eps=1e-3, atol=1e-3, rtol=1e-2)
        assert torch.autograd.gradcheck(
            lambda q, k, v, boost, bias: kt.attention(q, k, v, key_boost=boost, bias=bias,
                                                      causal=True),
            leaves[:5], eps=1e-3, atol=1e-3, rtol=1e-2)


# ---- behaviour ----------------------------------------------------------------------------------------

def test_zero_copy_for_contiguous_inputs():
    q, k, v = make(14, 1, 2, 10, 12, 8)
    out = kt.attention(q, k, v)
    arrays = out.grad_fn.arrays  # the numpy arrays the kernels read
    for name, t in (("q", q), ("k", k), ("v", v)):
        assert np.shares_memory(arrays[name], t.detach().numpy()), name
    qt = q.detach().transpose(-1, -2).contiguous().transpose(-1, -2).requires_grad_()  # strided
    out2 = kt.attention(qt, k, v)
    assert not np.shares_memory(out2.grad_fn.arrays["q"], qt.detach().numpy())
    assert torch.equal(out, out2)  # the copy gives the same result


def test_threads_give_identical_results():
    q, k, v = make(15, 1, 3, 130, 140, 16)
    m = torch.tensor(1.9, requires_grad=True)
    results = []
    for threads in (1, 2):
        for t in (q, k, v, m):
            t.grad = None
        out = kt.attention(q, k, v, normalizer="fuzzy", m=m, causal=True, threads=threads)
        out.square().sum().backward()
        results.append([out.detach().clone()] + [t.grad.clone() for t in (q, k, v, m)])
    for a, b in zip(*results):
        assert torch.equal(a, b)


def test_inside_a_module_m_learns():
    """A parameter m gets gradients through the op and an optimizer moves it."""
    q, k, v = make(16, 1, 1, 20, 20, 8)
    m = torch.nn.Parameter(torch.tensor(2.0))
    target = eager_fuzzy(q.detach(), k.detach(), v.detach(), {"m": 1.4})
    opt = torch.optim.Adam([m], lr=0.05)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = (kt.attention(q.detach(), k.detach(), v.detach(), normalizer="fuzzy", m=m)
                - target).square().mean()
        loss.backward()
        opt.step()
        losses.append(float(loss))
    assert losses[-1] < 0.1 * losses[0]
    assert abs(float(m) - 1.4) < 0.1  # recovers the m that made the target


def raises(kind, pattern, fn, *args, **kw):
    with pytest.raises(kind, match=pattern):
        fn(*args, **kw)


def test_errors_name_the_argument():
    q, k, v = make(17, 1, 2, 5, 6, 4)
    raises(TypeError, r"q has dtype torch.float64", kt.attention, q.double(), k, v)
    raises(TypeError, r"v must be a torch.Tensor", kt.attention, q, k, v.detach().numpy())
    raises(ValueError, r"q has shape \[4\]", kt.attention, torch.ones(4), k, v)
    raises(ValueError, r"q has D=4 but k has D=3", kt.attention, q, k[..., :3], v)
    raises(ValueError, r"alibi_slopes requires grad", kt.attention, q, k, v,
           alibi_slopes=torch.ones(2, requires_grad=True))
    raises(ValueError, r"temperature requires grad", kt.attention, q, k, v,
           temperature=torch.tensor(0.5, requires_grad=True))
    raises(ValueError, r"m is only used by normalizer='fuzzy'", kt.attention, q, k, v,
           m=torch.tensor(2.0, requires_grad=True))
    raises(ValueError, r"time_decay requires grad, but no times", kt.attention, q, k, v,
           time_decay=torch.tensor(0.1, requires_grad=True))
    raises(ValueError, r"m must be a number or a one-element tensor", kt.attention, q, k, v,
           normalizer="fuzzy", m=torch.ones(2))
    raises(ValueError, r"int8.*inference-only", kt.attention, q, k, v, kv_dtype="int8")
    raises(ValueError, r"'return_lse' is not accepted", kt.attention, q, k, v, return_lse=True)
    raises(TypeError, r"bias has dtype torch.float64", kt.attention, q, k, v,
           bias=torch.zeros(1, 2, 5, 6, dtype=torch.float64))
    raises(ValueError, r"unknown keyword 'casual'", kt.attention, q, k, v, casual=True)
    raises(ValueError, r"m must be > 1|m .*> 1", kt.attention, q, k, v, normalizer="fuzzy", m=1.0)
    with torch.no_grad():  # int8 is fine for inference
        out = kt.attention(q, k, v, kv_dtype="int8")
    assert out.shape == (1, 2, 5, 4)


def test_double_backward_is_refused():
    q, k, v = make(18, 1, 1, 4, 4, 4)
    out = kt.attention(q, k, v)
    w = torch.ones_like(out, requires_grad=True)  # a grad_output that itself requires grad
    (gq,) = torch.autograd.grad(out, q, grad_outputs=w, create_graph=True)
    with pytest.raises(RuntimeError, match="differentiate twice"):
        gq.sum().backward()


def test_in_place_change_after_forward_is_caught():
    q, k, v = make(19, 1, 1, 4, 4, 4)
    out = kt.attention(q, k, v)
    with torch.no_grad():
        k.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.sum().backward()
