"""Parity of kessel's attention engine (forward, weights, every gradient) with an independent float64
PyTorch autograd implementation (attention_torch_ref.py), for impl="fused" and impl="reference".

Error metric, per tensor: err(a, b) = max|a - b| / (floor + max|b|), b the float64 reference, over the
finite entries (infinite entries, e.g. lse = -inf on fully masked rows, must match exactly).
Tolerances: forward (out, lse, weights) err <= 1e-5 with floor 1e-6; gradients err <= 1e-4 with floor
1e-2. kessel computes in float32, the reference in float64 on the same float32 inputs. The gradient
floor matters only for gradients that are zero in exact arithmetic (one visible key: dq = dk = 0), where
float32 leaves ~1e-7 of cancellation noise; inputs are scaled so that real gradients are O(0.05..50).
"""

import math
import zlib

import numpy as np
import pytest
import torch

import kessel
from attention_torch_ref import attention_ref

FWD_TOL = 1e-5
GRAD_TOL = 1e-4
FWD_FLOOR = 1e-6
GRAD_FLOOR = 1e-2
IMPLS = ["fused", "reference"]
SCORERS = {  # name -> spec of the similarity/normalizer pair
    "dot": {"similarity": "dot"},
    "cosine": {"similarity": "cosine"},
    "constrained_cosine": {"similarity": "constrained_cosine", "beta": 0.3},
    "neg_sq_euclidean": {"similarity": "neg_sq_euclidean"},
    "fuzzy": {"normalizer": "fuzzy", "m": 2.0},
}
MASKS = ["none", "causal", "padding", "window_lag", "chunk", "mask_allowed"]
SHAPES = [(7, 7), (1, 7), (64, 129), (129, 64), (7, 1), (129, 129), (64, 64)]  # (Lq, Lk)
DIMS = [16, 64, 80]
GRAD_KEYS = {"q": "dq", "k": "dk", "v": "dv", "bias": "dbias", "rel_bias": "drel_bias",
             "key_boost": "dkey_boost", "m": "dm", "time_decay": "dtime_decay"}


def rng_for(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def err(a, b, floor=FWD_FLOOR):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert not np.isnan(a).any(), "kessel returned NaN"
    inf_a, inf_b = ~np.isfinite(a), ~np.isfinite(b)
    assert np.array_equal(inf_a, inf_b) and np.array_equal(a[inf_a], b[inf_b]), \
        "infinite entries differ"
    if not np.isfinite(b).any():
        return 0.0
    return float(np.max(np.abs(a[~inf_a] - b[~inf_b])) / (floor + np.max(np.abs(b[~inf_b]))))


def grad_floor(name, q):
    """The error floor of a gradient. dm and dtime_decay are sums over all B*H*Lq query rows, each
    row with the rounding of one dq row; where they vanish in exact arithmetic (one visible key:
    w = 1) that rounding adds up over the rows, so their floor is GRAD_FLOOR per row."""
    if name in ("m", "time_decay"):
        return GRAD_FLOOR * int(np.prod(q.shape[:-1]))
    return GRAD_FLOOR


def make_qkv(rng, B, H, Lq, Lk, D, Dv=None):
    # |q|, |k| ~ D^(1/4): distances and dots stay O(sqrt(D)), so float32 logits keep ~1e-7 accuracy
    s = D ** -0.25
    q = (rng.standard_normal((B, H, Lq, D)) * s).astype(np.float32)
    k = (rng.standard_normal((B, H, Lk, D)) * s).astype(np.float32)
    v = rng.standard_normal((B, H, Lk, Dv or D)).astype(np.float32)
    return q, k, v


def mask_spec(name, rng, B, H, Lq, Lk):
    if name == "none":
        return {}
    if name == "causal":
        return {"causal": True}
    if name == "padding":
        return {"key_lengths": np.array([Lk, max(1, Lk // 2)][:B] + [1] * max(0, B - 2))}
    if name == "window_lag":
        return {"window": 5, "min_lag": 1}
    if name == "chunk":
        return {"chunk_size": 4, "causal": True}
    if name == "mask_allowed":
        mask = rng.random((1, H, Lq, Lk)) < 0.7
        mask[0, 0, 0, :] = False  # one fully masked row per batch
        return {"mask": mask, "allowed_keys": (rng.random((B, Lk)) < 0.8).astype(np.int32)}
    raise ValueError(name)


def torch_spec(spec):
    """kessel keywords -> attention_ref keywords: float64 tensors, learnable ones requiring grad."""
    out = {}
    for key, val in spec.items():
        if key in ("impl", "threads", "kv_dtype"):
            continue
        if key in ("bias", "rel_bias", "key_boost"):
            out[key] = torch.tensor(val, dtype=torch.float64, requires_grad=True)
        elif key == "times":
            out[key] = (tuple(torch.tensor(t, dtype=torch.float64) for t in val)
                        if isinstance(val, tuple) else torch.tensor(val, dtype=torch.float64))
        elif isinstance(val, np.ndarray):
            out[key] = torch.tensor(val)
        else:
            out[key] = val
    # The spec's learnable scalars: m under fuzzy, time_decay whenever times are given.
    if spec.get("normalizer") == "fuzzy":
        out["m"] = torch.tensor(float(spec.get("m", 2.0)), dtype=torch.float64, requires_grad=True)
    if "times" in spec:
        out["time_decay"] = torch.tensor(float(spec.get("time_decay", 0.0)), dtype=torch.float64,
                                         requires_grad=True)
    return out


def run_ref(q, k, v, spec):
    tq, tk, tv = (torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (q, k, v))
    tspec = torch_spec(spec)
    res = attention_ref(tq, tk, tv, **tspec)
    leaves = {"q": tq, "k": tk, "v": tv}
    leaves.update({key: t for key, t in tspec.items() if key in GRAD_KEYS})
    return res, leaves


def check_parity(q, k, v, spec, grads=True, label="", grad_tol=GRAD_TOL):
    """Forward, lse, stats, weights and every gradient of kessel vs the float64 reference."""
    out, lse, stats = kessel.attention(q, k, v, return_lse=True, return_stats=True, **spec)
    ref, leaves = run_ref(q, k, v, spec)
    e = err(out, ref["out"].detach().numpy())
    assert e <= FWD_TOL, f"{label} out err {e:.3g}"
    e = err(lse, ref["lse"].detach().numpy())
    assert e <= FWD_TOL, f"{label} lse err {e:.3g}"
    assert stats["fully_masked_rows"] == ref["fully_masked_rows"], (label, stats, ref)
    assert stats["crisp_rows"] == ref["crisp_rows"], (label, stats, ref)
    weights = kessel.attention_weights(q, k, v, **spec)
    e = err(weights, ref["weights"].detach().numpy())
    assert e <= FWD_TOL, f"{label} weights err {e:.3g}"
    if not grads:
        return
    dout = rng_for("dout", out.shape).standard_normal(out.shape).astype(np.float32)
    g = kessel.attention_backward(q, k, v, dout, **spec)
    ref["out"].backward(torch.tensor(dout, dtype=torch.float64))
    assert set(g) == {GRAD_KEYS[name] for name in leaves}, (label, sorted(g))
    for name, leaf in leaves.items():
        e = err(g[GRAD_KEYS[name]], leaf.grad.numpy(), floor=grad_floor(name, q))
        assert e <= grad_tol, f"{label} {GRAD_KEYS[name]} err {e:.3g}"


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("scorer", list(SCORERS))
def test_similarity_normalizer_mask(scorer, mask, impl):
    rng = rng_for(scorer, mask)  # the same problem for both impls
    Lq, Lk = SHAPES[rng.integers(len(SHAPES))]
    if mask == "chunk" and Lq > Lk:  # chunks of negative query positions are rejected (errors test)
        Lq, Lk = Lk, Lq
    D = DIMS[rng.integers(len(DIMS))]
    B, H = 2, 2
    q, k, v = make_qkv(rng, B, H, Lq, Lk, D, Dv=DIMS[rng.integers(len(DIMS))])
    spec = dict(SCORERS[scorer], impl=impl, **mask_spec(mask, rng, B, H, Lq, Lk))
    check_parity(q, k, v, spec, label=f"{scorer}/{mask}/{impl} Lq={Lq} Lk={Lk} D={D}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer,mask", [("dot", "causal"), ("fuzzy", "none"),
                                         ("neg_sq_euclidean", "chunk")])
def test_long_sequences(scorer, mask, impl):
    rng = rng_for("long", scorer, mask)
    B, H, L, D = 1, 1, 1000, 64
    q, k, v = make_qkv(rng, B, H, L, L, D)
    spec = dict(SCORERS[scorer], impl=impl, **mask_spec(mask, rng, B, H, L, L))
    check_parity(q, k, v, spec, label=f"long {scorer}/{mask}/{impl}")


def term_spec(term, rng, B, H, Lq, Lk):
    times_q = np.cumsum(rng.exponential(1.0, (B, Lk)), axis=1).astype(np.float32)
    if term == "bias_full":
        return {"bias": rng.standard_normal((B, H, Lq, Lk)).astype(np.float32)}
    if term == "bias_broadcast_h1k":
        return {"bias": rng.standard_normal((H, 1, Lk)).astype(np.float32)}
    if term == "bias_broadcast_qk":
        return {"bias": rng.standard_normal((Lq, Lk)).astype(np.float32)}
    if term == "alibi":
        return {"alibi_slopes": (2.0 ** -np.arange(1, H + 1)).astype(np.float32)}
    if term == "rel_bias_bidirectional":
        return {"rel_bias": rng.standard_normal((H, 32)).astype(np.float32), "rel_max_distance": 64}
    if term == "rel_bias_unidirectional":
        return {"rel_bias": rng.standard_normal((H, 16)).astype(np.float32),
                "rel_bidirectional": False, "rel_max_distance": 100}
    if term in ("times_additive", "times_multiplicative"):
        kt = times_q
        qt = kt[:, Lk - Lq:] if Lq <= Lk else np.concatenate(
            [np.zeros((B, Lq - Lk), np.float32), kt], axis=1)
        return {"times": (qt, kt), "time_decay": 0.2, "time_decay_mode": term.split("_")[1]}
    if term == "key_boost":
        return {"key_boost": rng.standard_normal((B, Lk)).astype(np.float32)}
    if term == "zscore":
        return {"zscore": True}
    if term == "temperature":
        return {"temperature": 0.7}
    if term == "scale":
        return {"scale": 0.37}
    raise ValueError(term)


TERMS = ["bias_full", "bias_broadcast_h1k", "bias_broadcast_qk", "alibi", "rel_bias_bidirectional",
         "rel_bias_unidirectional", "times_additive", "times_multiplicative", "key_boost", "zscore",
         "temperature", "scale"]


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", ["dot", "fuzzy"])
@pytest.mark.parametrize("term", TERMS)
def test_score_terms(term, scorer, impl):
    if term in ("temperature", "scale") and scorer == "fuzzy":
        pytest.skip(f"{term} is a parameter of softmax similarities only")
    rng = rng_for("term", term, scorer)
    B, H, Lq, Lk, D = 2, 3, 65, 129, 16  # Lk - Lq up to 128 reaches T5's logarithmic buckets
    q, k, v = make_qkv(rng, B, H, Lq, Lk, D)
    spec = dict(SCORERS[scorer], impl=impl, **term_spec(term, rng, B, H, Lq, Lk))
    check_parity(q, k, v, spec, label=f"{term}/{scorer}/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", ["dot", "constrained_cosine", "fuzzy"])
def test_all_terms_and_masks_combined(scorer, impl):
    rng = rng_for("combined", scorer)
    B, H, Lq, Lk, D = 2, 2, 33, 70, 24
    q, k, v = make_qkv(rng, B, H, Lq, Lk, D)
    spec = dict(SCORERS[scorer], impl=impl)
    for term in ["bias_broadcast_h1k", "alibi", "rel_bias_bidirectional", "times_additive",
                 "key_boost", "zscore"]:
        spec.update(term_spec(term, rng, B, H, Lq, Lk))
    spec.update(causal=True, key_lengths=np.array([Lk, Lk - 9]), window=40,
                mask=(rng.random((B, 1, Lq, Lk)) < 0.85).astype(np.uint8))  # integer mask
    check_parity(q, k, v, spec, label=f"combined/{scorer}/{impl}")
    # lag by time instead of by position, multiplicative decay
    spec.update(min_lag=1, lag_by_time=True, time_decay_mode="multiplicative", causal=False)
    check_parity(q, k, v, spec, label=f"combined-time-lag/{scorer}/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
def test_plain_softmax_matches_torch_softmax(impl):
    rng = rng_for("plain")
    q, k, v = make_qkv(rng, 2, 4, 37, 53, 64)
    tq, tk, tv = (torch.tensor(x, dtype=torch.float64) for x in (q, k, v))
    expected = torch.softmax(tq @ tk.transpose(-1, -2) / math.sqrt(64), dim=-1) @ tv
    assert err(kessel.attention(q, k, v, impl=impl), expected.numpy()) <= FWD_TOL


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("m", [1.5, 2.0, 3.0])
def test_fuzzy_matches_fcm_membership(m, impl):
    # FCM membership of point q_i to centres k_j: u_ij = 1 / sum_l (d_ij / d_il)^(2/(m-1))
    rng = rng_for("fcm", m)
    q, k, v = make_qkv(rng, 1, 2, 40, 9, 5)
    d = np.sqrt(((q[..., :, None, :].astype(np.float64) - k[..., None, :, :]) ** 2).sum(-1))
    u = 1.0 / ((d[..., :, :, None] / d[..., :, None, :]) ** (2.0 / (m - 1.0))).sum(-1)
    w = kessel.attention_weights(q, k, v, normalizer="fuzzy", m=m, impl=impl)
    assert err(w, u) <= FWD_TOL
    out = kessel.attention(q, k, v, normalizer="fuzzy", m=m, impl=impl)
    assert err(out, u @ v.astype(np.float64)) <= FWD_TOL


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", ["dot", "fuzzy"])
def test_fully_masked_rows(scorer, impl):
    rng = rng_for("masked", scorer)
    B, H, L, D = 2, 2, 20, 16
    q, k, v = make_qkv(rng, B, H, L, L, D)
    mask = np.ones((B, H, L, L), dtype=bool)
    mask[0, 1, 3, :] = False
    spec = dict(SCORERS[scorer], impl=impl, key_lengths=np.array([L, 0]), mask=mask)
    out, lse, stats = kessel.attention(q, k, v, return_lse=True, return_stats=True, **spec)
    expected_rows = H * L + 1  # all of batch 1, plus one row of batch 0
    assert stats["fully_masked_rows"] == expected_rows
    assert np.all(out[1] == 0) and np.all(out[0, 1, 3] == 0)
    assert np.all(lse[1] == -np.inf) and lse[0, 1, 3] == -np.inf
    assert np.isfinite(lse[0, 0]).all() and not np.isnan(out).any()
    dout = rng.standard_normal(out.shape).astype(np.float32)
    g = kessel.attention_backward(q, k, v, dout, **spec)
    for name, grad in g.items():
        assert np.isfinite(grad).all(), name
    assert np.all(g["dq"][1] == 0) and np.all(g["dq"][0, 1, 3] == 0)
    check_parity(q, k, v, spec, label=f"masked/{scorer}/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
def test_large_scores(impl):
    # Scores of exactly +-1e4 plus small integers (exact in float32): no overflow, no NaN.
    B, H, L, D = 1, 2, 12, 8
    rng = rng_for("large")
    q = np.zeros((B, H, L, D), np.float32)
    q[..., 0], q[..., 1] = 100.0, 1.0
    k = np.zeros((B, H, L, D), np.float32)
    k[..., 0] = np.where(rng.random((B, H, L)) < 0.5, 100.0, -100.0)
    k[..., 1] = rng.integers(0, 4, (B, H, L))
    v = rng.standard_normal((B, H, L, D)).astype(np.float32)
    spec = {"scale": 1.0, "impl": impl}
    out, lse = kessel.attention(q, k, v, return_lse=True, **spec)
    assert np.isfinite(out).all() and np.isfinite(lse).all()
    assert np.abs(lse).max() > 9e3
    # The backward recomputes P = exp(s - lse) from a float32 lse (FlashAttention-2 style): at
    # |lse| = 1e4 that lse carries an absolute rounding error of up to 1e4 * 2^-24 = 6e-4, hence the
    # looser gradient bound here (the forward keeps the usual 1e-5).
    large_grad_tol = 2e-3
    check_parity(q, k, v, spec, label=f"large/{impl}", grad_tol=large_grad_tol)
    check_parity(-q, k, v, spec, label=f"large-negated/{impl}", grad_tol=large_grad_tol)


@pytest.mark.parametrize("impl", IMPLS)
def test_crisp_rows_under_fuzzy(impl):
    rng = rng_for("crisp")
    B, H, L, D = 1, 2, 9, 16
    q, k, v = make_qkv(rng, B, H, L, L, D)
    q[0, 1, 5] = q[0, 1, 4]  # queries 4 and 5 of head 1 both match keys 4 and 5: shared weight
    k = q.copy()
    spec = {"normalizer": "fuzzy", "m": 2.0, "impl": impl}
    out, lse, stats = kessel.attention(q, k, v, return_lse=True, return_stats=True, **spec)
    w = kessel.attention_weights(q, k, v, **spec)
    expected = np.broadcast_to(np.eye(L, dtype=np.float32), (B, H, L, L)).copy()
    expected[0, 1, 4:6, 4:6] = 0.5
    np.testing.assert_allclose(w, expected, rtol=0, atol=1e-7)
    assert stats["crisp_rows"] == B * H * L
    assert np.all(lse == np.inf)
    np.testing.assert_allclose(out, expected @ v, rtol=1e-6, atol=1e-6)
    dout = rng.standard_normal(out.shape).astype(np.float32)
    g = kessel.attention_backward(q, k, v, dout, **spec)
    assert np.all(g["dq"] == 0) and np.all(g["dk"] == 0)  # no gradient through crisp rows
    np.testing.assert_allclose(g["dv"], np.swapaxes(expected, -1, -2) @ dout, rtol=1e-6, atol=1e-6)
    check_parity(q, k, v, spec, label=f"crisp/{impl}")
    # a single crisp row among ordinary ones
    q2 = q.copy()
    q2[0, :, 1:] += 0.3
    check_parity(q2, k, v, spec, label=f"crisp-one-row/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("m", [1.05, 50.0])
def test_extreme_fuzzifier(m, impl):
    rng = rng_for("m", m)
    q, k, v = make_qkv(rng, 1, 2, 31, 47, 16)
    check_parity(q, k, v, {"normalizer": "fuzzy", "m": m, "impl": impl, "causal": True},
                 label=f"m={m}/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", list(SCORERS))
def test_length_one(scorer, impl):
    q, k, v = make_qkv(rng_for("L1", scorer), 1, 1, 1, 1, 16)
    check_parity(q, k, v, dict(SCORERS[scorer], impl=impl), label=f"L=1/{scorer}/{impl}")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", ["dot", "fuzzy"])
def test_thread_count_is_bit_identical(scorer, impl):
    rng = rng_for("threads", scorer)
    B, H, Lq, Lk, D = 2, 3, 129, 200, 64
    q, k, v = make_qkv(rng, B, H, Lq, Lk, D)
    spec = dict(SCORERS[scorer], impl=impl, causal=True,
                bias=rng.standard_normal((H, Lq, Lk)).astype(np.float32))
    dout = rng.standard_normal((B, H, Lq, D)).astype(np.float32)
    results = []
    for threads in (1, 2):
        out, lse = kessel.attention(q, k, v, return_lse=True, threads=threads, **spec)
        g = kessel.attention_backward(q, k, v, dout, threads=threads, **spec)
        w = kessel.attention_weights(q, k, v, threads=threads, **spec)
        results.append([out, lse, w] + [g[key] for key in sorted(g)])
    for a, b in zip(*results):
        assert np.array_equal(a, b)


def test_quantize_rows_bounds():
    rng = rng_for("quant")
    x = (rng.standard_normal((37, 19)) * rng.exponential(1.0, (37, 1))).astype(np.float32)
    x[3] = 0.0  # an all-zero row must not produce NaN
    xq, scale = kessel.quantize_rows(x)
    assert xq.dtype == np.int8 and xq.shape == x.shape
    assert scale.dtype == np.float32 and scale.shape == (37,)
    np.testing.assert_allclose(scale, np.abs(x).max(1) / 127, rtol=1e-6)
    assert np.all(np.abs(x - xq * scale[:, None]) <= scale[:, None] / 2 * (1 + 1e-5) + 1e-30)
    assert np.all(xq[3] == 0) and np.isfinite(scale).all()


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("scorer", ["dot", "fuzzy"])
def test_int8_kv(scorer, impl):
    rng = rng_for("int8", scorer)
    B, H, Lq, Lk, D = 1, 2, 50, 90, 64
    q, k, v = make_qkv(rng, B, H, Lq, Lk, D)
    spec = dict(SCORERS[scorer], impl=impl, causal=True)
    out8 = kessel.attention(q, k, v, kv_dtype="int8", **spec)
    # against the reference on the dequantized k and v: the same numbers, float32 rounding only
    kq, ks = kessel.quantize_rows(k.reshape(-1, D))
    vq, vs = kessel.quantize_rows(v.reshape(-1, D))
    kd = (kq * ks[:, None]).reshape(k.shape).astype(np.float32)
    vd = (vq * vs[:, None]).reshape(v.shape).astype(np.float32)
    ref, _ = run_ref(q, kd, vd, spec)
    assert err(out8, ref["out"].detach().numpy()) <= FWD_TOL
    w8 = kessel.attention_weights(q, k, v, kv_dtype="int8", **spec)
    assert err(w8, ref["weights"].detach().numpy()) <= FWD_TOL
    # against float32 k and v: quantization error only (half a step of 1/127 of each row's range)
    assert err(out8, kessel.attention(q, k, v, **spec)) <= 3e-2


@pytest.mark.parametrize("impl", IMPLS)
def test_ranks_two_and_three(impl):
    rng = rng_for("ranks")
    q, k, v = make_qkv(rng, 1, 3, 11, 13, 16)
    spec = {"impl": impl, "causal": True}
    out4, lse4 = kessel.attention(q, k, v, return_lse=True, **spec)
    out3, lse3 = kessel.attention(q[0], k[0], v[0], return_lse=True, **spec)
    out2, lse2 = kessel.attention(q[0, 1], k[0, 1], v[0, 1], return_lse=True, **spec)
    assert out3.shape == (3, 11, 16) and lse3.shape == (3, 11)
    assert out2.shape == (11, 16) and lse2.shape == (11,)
    assert np.array_equal(out3, out4[0]) and np.array_equal(lse3, lse4[0])
    assert np.allclose(out2, out4[0, 1], rtol=0, atol=1e-7)
    # non-contiguous and float64 inputs are converted, not misread
    v_strided = np.swapaxes(np.swapaxes(v[0], 1, 2).copy(), 1, 2)
    assert not v_strided.flags.c_contiguous
    out_t = kessel.attention(np.asfortranarray(q[0]), k[0].astype(np.float64), v_strided, **spec)
    assert np.array_equal(out_t, out3)
    w2 = kessel.attention_weights(q[0, 1], k[0, 1], v[0, 1], **spec)
    assert w2.shape == (11, 13)
    dout = rng.standard_normal((11, 16)).astype(np.float32)
    g = kessel.attention_backward(q[0, 1], k[0, 1], v[0, 1], dout, **spec)
    assert g["dq"].shape == (11, 16) and g["dk"].shape == (13, 16) and g["dv"].shape == (13, 16)


@pytest.mark.parametrize("impl", IMPLS)
def test_backward_with_given_forward(impl):
    rng = rng_for("given")
    q, k, v = make_qkv(rng, 2, 2, 17, 17, 16)
    spec = {"impl": impl, "normalizer": "fuzzy", "window": 4,
            "key_boost": rng.standard_normal((2, 17)).astype(np.float32)}
    out, lse = kessel.attention(q, k, v, return_lse=True, **spec)
    dout = rng.standard_normal(out.shape).astype(np.float32)
    g1 = kessel.attention_backward(q, k, v, dout, **spec)
    g2 = kessel.attention_backward(q, k, v, dout, out=out, lse=lse, **spec)
    for key in g1:
        assert np.array_equal(g1[key], g2[key]), key


def test_fused_skips_hidden_tiles():
    q, k, v = make_qkv(rng_for("tiles"), 1, 1, 1000, 1000, 64)
    _, stats = kessel.attention(q, k, v, causal=True, return_stats=True, impl="fused")
    assert stats["key_tiles_skipped"] > 0 and stats["key_tiles_visited"] > 0
