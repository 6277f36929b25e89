"""PyTorch parity of kessel's normalization layers and positional encodings (docs/nn.md).

Forward within 1e-5, gradients within 1e-4 relative (to max(1, max|reference|)), over odd sizes.
"""
import json
import math
import os
import subprocess

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import kessel

FWD_TOL = 1e-5
GRAD_RTOL = 1e-4
SIZES = [(n, c) for n in (1, 7, 129) for c in (1, 3, 768)]


def rng(seed):
    return np.random.default_rng(seed)


def assert_fwd(got, want, tol=FWD_TOL):
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else want
    assert got.shape == want.shape
    want = want.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)


def assert_grad(got, want, rtol=GRAD_RTOL, floor=1.0):
    """max|got - want| <= rtol * max(floor, max|want|); floor=0 makes it purely relative."""
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else want
    assert got.shape == want.shape
    scale = max(floor, float(np.abs(want).max(initial=0.0)))
    err = float(np.abs(got - want).max(initial=0.0))
    if scale == 0.0:
        assert err <= 1e-7, f"expected zeros, got max |value| {err:.3g}"
    else:
        assert err / scale <= rtol, f"relative error {err / scale:.3g}"


def leaf(a):
    return torch.tensor(a, requires_grad=True)


def leaf64(a):
    """The same float32 values, promoted: the reference runs torch in float64. torch's float32 CPU
    LayerNorm folds the mean into an affine term (x * a + c, a = rstd * w), which loses ~3e-5
    absolute when rstd is large (C = 1, eps = 1e-5 gives rstd = 316); kessel subtracts the mean first
    and is the more accurate of the two there, so float32 torch is not the yardstick."""
    return torch.tensor(a, dtype=torch.float64, requires_grad=True)


# ---- LayerNorm ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n,c", SIZES)
def test_layer_norm_matches_torch(n, c):
    r = rng(n * 1000 + c)
    x = (r.standard_normal((n, c)) * 2 + 3).astype(np.float32)
    w = (1 + 0.5 * r.standard_normal(c)).astype(np.float32)
    b = r.standard_normal(c).astype(np.float32)
    dout = r.standard_normal((n, c)).astype(np.float32)
    out, mean, rstd = kessel.layer_norm(x, w, b)
    tx, tw, tb = leaf64(x), leaf64(w), leaf64(b)
    ref = F.layer_norm(tx, (c,), tw, tb, eps=1e-5)
    ref.backward(torch.tensor(dout, dtype=torch.float64))
    assert_fwd(out, ref)
    assert_fwd(mean, tx.detach().mean(-1).float())
    g = kessel.layer_norm_backward(dout, x, w, mean, rstd)
    assert_grad(g["dx"], tx.grad)
    assert_grad(g["dweight"], tw.grad)
    assert_grad(g["dbias"], tb.grad)


def test_layer_norm_leading_dims_eps_and_out_only():
    r = rng(1)
    x = r.standard_normal((2, 3, 5)).astype(np.float32) * 1e-3
    w, b = np.ones(5, np.float32), np.zeros(5, np.float32)
    out = kessel.layer_norm(x, w, b, eps=1e-3, return_stats=False)
    assert_fwd(out, F.layer_norm(torch.tensor(x), (5,), eps=1e-3))
    _, mean, rstd = kessel.layer_norm(x, w, b)
    assert mean.shape == (2, 3) and rstd.shape == (2, 3)


def test_layer_norm_rejects_bad_arguments():
    x = np.zeros((4, 3), np.float32)
    w, b = np.ones(3, np.float32), np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="weight has shape"):
        kessel.layer_norm(x, np.ones(2, np.float32), b)
    with pytest.raises(ValueError, match="eps"):
        kessel.layer_norm(x, w, b, eps=0.0)
    _, mean, rstd = kessel.layer_norm(x, w, b)
    with pytest.raises(ValueError, match="dout has shape"):
        kessel.layer_norm_backward(np.zeros((4, 2), np.float32), x, w, mean, rstd)


# ---- RMSNorm ------------------------------------------------------------------------------------


def torch_rms_norm(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


@pytest.mark.parametrize("n,c", SIZES)
def test_rms_norm_matches_manual_torch(n, c):
    r = rng(n * 7 + c)
    x = r.standard_normal((n, c)).astype(np.float32)
    w = (1 + 0.5 * r.standard_normal(c)).astype(np.float32)
    dout = r.standard_normal((n, c)).astype(np.float32)
    out, rstd = kessel.rms_norm(x, w)
    tx, tw = leaf(x), leaf(w)
    ref = torch_rms_norm(tx, tw, 1e-6)
    ref.backward(torch.tensor(dout))
    assert_fwd(out, ref)
    g = kessel.rms_norm_backward(dout, x, w, rstd)
    assert_grad(g["dx"], tx.grad)
    assert_grad(g["dweight"], tw.grad)


# ---- HybridLayerNorm ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 7, 129])
def test_hybrid_layer_norm_is_per_segment_layer_norm(n):
    segments = [("text", 64), ("emoji", 3), ("time", 1), ("image", 32)]
    sizes = [s for _, s in segments]
    f = sum(sizes)
    r = rng(n)
    scales = np.concatenate([np.full(s, k) for s, k in zip(sizes, (1.0, 5.0, 1e3, 100.0))])
    x = (r.standard_normal((n, f)) * scales).astype(np.float32)
    ws = [(1 + 0.3 * r.standard_normal(s)).astype(np.float32) for s in sizes]
    bs = [r.standard_normal(s).astype(np.float32) for s in sizes]
    dout = r.standard_normal((n, f)).astype(np.float32)
    out, mean, rstd = kessel.hybrid_layer_norm(x, segments, ws, bs)
    assert mean.shape == (n, 4)
    tx = leaf64(x)
    tws, tbs = [leaf64(w) for w in ws], [leaf64(b) for b in bs]
    parts = torch.split(tx, sizes, dim=-1)
    ref = torch.cat([F.layer_norm(p, (s,), w, b, eps=1e-5)
                     for p, s, w, b in zip(parts, sizes, tws, tbs)], dim=-1)
    ref.backward(torch.tensor(dout, dtype=torch.float64))
    assert_fwd(out, ref)
    g = kessel.hybrid_layer_norm_backward(dout, x, segments, ws, mean, rstd)
    # dx of a segment scales as 1/std of that segment: purely relative, segment by segment. A 1-wide
    # segment normalizes to its bias, so its dx is 0 analytically; in float the kernel's
    # rstd * (g*w - mean(g*w)) keeps rstd * ulp(g*w) when the compiler fuses it into an FMA, with
    # rstd = 1/sqrt(eps) = 316: a few 1e-6.
    off = 0
    for s in sizes:
        if s == 1:
            assert np.abs(g["dx"][:, off]).max() < 1e-4
        else:
            assert_grad(g["dx"][:, off:off + s], tx.grad[:, off:off + s], floor=0.0)
        off += s
    for i in range(len(sizes)):
        assert_grad(g["dweights"][i], tws[i].grad)
        assert_grad(g["dbiases"][i], tbs[i].grad)


def test_hybrid_layer_norm_rejects_segments_not_tiling_the_row():
    x = np.zeros((2, 5), np.float32)
    with pytest.raises(ValueError, match="sum to 4"):
        kessel.hybrid_layer_norm(x, [2, 2], [np.ones(2, np.float32)] * 2, [np.zeros(2, np.float32)] * 2)
    with pytest.raises(ValueError, match="weights"):
        kessel.hybrid_layer_norm(x, [2, 3], [np.ones(2, np.float32)], [np.zeros(2, np.float32)] * 2)


# ---- positional encodings -----------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 64, 768])
def test_sinusoidal_matches_the_usual_torch_code(d):
    length = 129
    pos = torch.arange(length, dtype=torch.float64).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    ref = torch.zeros(length, d, dtype=torch.float64)
    ref[:, 0::2] = torch.sin(pos * div)
    ref[:, 1::2] = torch.cos(pos * div)
    assert_fwd(kessel.sinusoidal_encoding(length, d), ref.numpy().astype(np.float32))


@pytest.mark.parametrize("d", [1, 3, 7])
def test_sinusoidal_odd_width_has_an_unpaired_last_sine(d):
    pe = kessel.sinusoidal_encoding(9, d)
    p = np.arange(9)[:, None]
    i = np.arange(d)[None, :] // 2
    angle = p / 10000.0 ** (2 * i / d)
    ref = np.where(np.arange(d)[None, :] % 2 == 0, np.sin(angle), np.cos(angle))
    assert_fwd(pe, ref.astype(np.float32))


def test_learned_position_gathers_and_scatter_adds():
    r = rng(3)
    x = r.standard_normal((2, 7, 5)).astype(np.float32)
    table = r.standard_normal((10, 5)).astype(np.float32)
    positions = [0, 1, 2, 3, 4, 5, 6, 3, 4, 5, 6, 7, 8, 9]
    dout = r.standard_normal(x.shape).astype(np.float32)
    out = kessel.learned_position(x, table, positions)
    tt = leaf(table)
    ref = torch.tensor(x).reshape(-1, 5) + tt[torch.tensor(positions)]
    ref.backward(torch.tensor(dout).reshape(-1, 5))
    assert_fwd(out.reshape(-1, 5), ref)
    g = kessel.learned_position_backward(dout, positions, 10)
    assert_grad(g["dtable"], tt.grad)
    assert_grad(g["dx"], dout)
    with pytest.raises(ValueError, match="outside"):
        kessel.learned_position(x, table, [11] * 14)


def hf_relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance):
    """HuggingFace T5Attention._relative_position_bucket, rewritten here as the reference."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


@pytest.mark.parametrize("lq,lk", [(1, 1), (7, 7), (129, 129), (3, 129), (129, 7)])
@pytest.mark.parametrize("buckets,max_distance", [(32, 128), (8, 16)])
@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_bias_matches_hf_buckets(lq, lk, buckets, max_distance, bidirectional):
    h = 3
    r = rng(lq * 131 + lk)
    table = r.standard_normal((h, buckets)).astype(np.float32)
    dbias = r.standard_normal((h, lq, lk)).astype(np.float32)
    # The engine's end alignment: query i sits at position i + Lk - Lq.
    context = torch.arange(lq)[:, None] + (lk - lq)
    memory = torch.arange(lk)[None, :]
    bucket = hf_relative_position_bucket(memory - context, bidirectional, buckets, max_distance)
    tt = leaf(table)
    ref = tt[:, bucket]
    ref.backward(torch.tensor(dbias))
    got = kessel.t5_bias(table, lq, lk, max_distance=max_distance, bidirectional=bidirectional)
    assert_fwd(got, ref, tol=0.0)
    dtable = kessel.t5_bias_backward(dbias, buckets, max_distance=max_distance,
                                     bidirectional=bidirectional)
    assert_grad(dtable, tt.grad)


# ---- position mixing and gated fusion -----------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (2, 13, 5), (3, 129, 7)])
def test_position_mix_matches_softmax_matmul(shape):
    r = rng(sum(shape))
    t = shape[-2]
    x = r.standard_normal(shape).astype(np.float32)
    logits = (2 * r.standard_normal((t, t))).astype(np.float32)
    dy = r.standard_normal(shape).astype(np.float32)
    y, probs = kessel.position_mix(x, logits)
    tx, tl = leaf(x), leaf(logits)
    p = torch.softmax(tl, dim=-1)
    ref = p @ tx  # row i of P feeds output i
    ref.backward(torch.tensor(dy))
    assert_fwd(probs, p)
    assert_fwd(y, ref)
    g = kessel.position_mix_backward(dy, x, probs)
    assert_grad(g["dx"], tx.grad)
    assert_grad(g["dlogits"], tl.grad)


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (2, 13, 5)])
def test_gated_fusion_matches_torch(shape):
    r = rng(sum(shape) + 100)
    t, d = shape[-2], shape[-1]
    x = r.standard_normal(shape).astype(np.float32)
    pe = kessel.sinusoidal_encoding(t, d) + 0.1 * r.standard_normal((t, d)).astype(np.float32)
    logits = r.standard_normal((t, t)).astype(np.float32)
    gate = (2 * r.standard_normal(d)).astype(np.float32)
    dy = r.standard_normal(shape).astype(np.float32)
    y, probs = kessel.gated_fusion(x, pe, logits, gate)
    tx, tpe, tl, tg = leaf(x), leaf(pe), leaf(logits), leaf(gate)
    g = torch.sigmoid(tg)
    ref = g * (tx + tpe) + (1 - g) * (torch.softmax(tl, -1) @ tx)
    ref.backward(torch.tensor(dy))
    assert_fwd(y, ref)
    grads = kessel.gated_fusion_backward(dy, x, pe, probs, gate)
    for name, t_ in (("dx", tx), ("dpe", tpe), ("dlogits", tl), ("dgate", tg)):
        assert_grad(grads[name], t_.grad)


def test_mixing_rejects_bad_shapes():
    with pytest.raises(ValueError, match="logits has shape"):
        kessel.position_mix(np.zeros((4, 2), np.float32), np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match="not finite"):
        kessel.position_mix(np.zeros((2, 2), np.float32), np.array([[0, np.nan], [0, 0]], np.float32))


# ---- kessel origins -----------------------------------------------------------------------------


def run_cli(*args):
    cli = os.environ.get("KESSEL_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("KESSEL_CLI is not set to a built kessel binary")
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def test_origins_json_is_deterministic_and_states_the_corrected_results():
    first = run_cli("origins", "--json")
    assert first == run_cli("origins", "--json")
    r = json.loads(first)
    fcm = r["fcm_vs_softmax"]
    assert [m["m"] for m in fcm["by_m"]] == [1.1, 1.5, 2.0, 3.0, 10.0]
    for m in fcm["by_m"]:
        assert m["max_abs_diff"] < 1e-12
        assert m["tau"] == pytest.approx(m["m"] - 1)
        assert m["effective_m"] == pytest.approx((m["m"] + 1) / 2)
        assert m["mistaken_vs_effective_max_abs_diff"] < 1e-12
    # Recompute the m = 2 memberships here from the seed's points and centres.
    x, c = np.array(fcm["points"]), np.array(fcm["centres"])
    d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    u = 1 / (d2[:, :, None] / d2[:, None, :]).sum(-1)
    np.testing.assert_allclose(np.array(fcm["by_m"][2]["fcm"]), u, atol=1e-12)
    hmm = r["hmm_vs_position_mixing"]
    assert hmm["max_abs_diff_P_eq_A_transpose"] < 1e-6
    assert hmm["max_abs_diff_P_eq_A"] > 1e-2
    a = np.array(hmm["transition"])
    alpha = np.array(hmm["initial"])
    for _ in range(hmm["steps"]):
        alpha = a.T @ alpha
    np.testing.assert_allclose(np.array(hmm["alpha_hmm"]), alpha, atol=1e-12)
    norm = r["hybrid_vs_single_layernorm"]
    single_text, hybrid_text = norm["single"][0], norm["hybrid"][0]
    assert single_text["name"] == "text" and single_text["within_row_std"] < 0.05
    assert hybrid_text["grad_var"] / single_text["grad_var"] > 100


def test_origins_text_mentions_each_experiment():
    out = run_cli("origins")
    for needle in ("(1) Fuzzy c-means", "(2) HMM forward", "(3) One LayerNorm", "m' = (m+1)/2"):
        assert needle in out
