"""The EACA network against an independent PyTorch implementation (docs/eaca.md, "Model").

kessel._eaca_trace runs one dialogue through one network in C++ (float32, hand-written backward) and
returns what the network saw, its parameters, outputs, loss and gradients. This file rebuilds the
network from the formulas in src/summarize/eaca_model.h with torch (float64, autograd), from the same
inputs and parameters, and compares. The C++ finite-difference test checks the backward against the
C++ forward; this test checks the forward itself against a second implementation, and the backward
against autograd, for all three attention variants, with and without times and both optional layers,
and for the BiLSTM context encoder, whose forward is also checked against torch.nn.LSTM itself.
"""
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
kessel = pytest.importorskip("kessel")

SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SAMPLES = {"zh": SRC / "data" / "samples" / "dialogues_zh.jsonl", "en": SRC / "data" / "samples" / "dialogues_en.jsonl"}
FWD_ATOL = 2e-5   # float32 C++ against float64 torch, on outputs of order 1
GRAD_RTOL = 1e-3  # relative to max(1e-3, max |autograd gradient|) of the tensor


def dialogue(lang, index, timed=True):
    lines = [l for l in SAMPLES[lang].read_text(encoding="utf-8").splitlines() if l.strip()]
    d = json.loads(lines[index])
    if not timed:
        for turn in d["turns"]:
            turn.pop("time", None)
    return d


def attend(q, k, v, fuzzy, q_times=None, k_times=None, decay=0.0, key_boost=None):
    """The engine's attention for one head (include/kessel/attention.h): dot similarity scaled by
    1/sqrt(D), or the fuzzy-membership similarity -ln(|q-k|^2 + 1e-12)/(m-1) with m = 2; then additive
    time decay and key boost; then softmax over keys."""
    if fuzzy:
        d2 = ((q[:, None, :] - k[None, :, :]) ** 2).sum(-1)
        logits = -torch.log(d2 + 1e-12) / (2.0 - 1.0)
    else:
        logits = (q @ k.T) / math.sqrt(q.shape[1])
    if q_times is not None and decay > 0.0:
        logits = logits - decay * (q_times[:, None] - k_times[None, :]).abs()
    if key_boost is not None:  # [U], or [Q, U] when gated per query
        logits = logits + (key_boost if key_boost.dim() == 2 else key_boost[None, :])
    return torch.softmax(logits, dim=1) @ v


def lstm_direction(x, wih, whh, b, reverse):
    """One LSTM direction written out (autograd differentiates it): gates i, f, g, o in PyTorch's order."""
    H = whh.shape[1]
    h = torch.zeros(H, dtype=torch.float64)
    c = torch.zeros(H, dtype=torch.float64)
    out = [None] * x.shape[0]
    for t in (reversed(range(x.shape[0])) if reverse else range(x.shape[0])):
        a = x[t] @ wih.T + h @ whh.T + b
        i, f, g, o = torch.sigmoid(a[:H]), torch.sigmoid(a[H:2 * H]), torch.tanh(a[2 * H:3 * H]), torch.sigmoid(a[3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(c)
        out[t] = h
    return torch.stack(out)


def torch_nn_bilstm(x, P):
    """torch.nn.LSTM(bidirectional=True) itself with kessel's tensors copied in (one bias per direction:
    b_hh = 0). It checks lstm_direction; autograd runs through lstm_direction, because torch 1.13's
    LSTM keeps its own flat copy of the weights and ignores functional_call's."""
    H = P["lstm_whh_f"].shape[1]
    lstm = torch.nn.LSTM(x.shape[1], H, bidirectional=True).double()
    with torch.no_grad():
        for suffix, d in (("", "f"), ("_reverse", "b")):
            getattr(lstm, "weight_ih_l0" + suffix).copy_(P["lstm_wih_" + d])
            getattr(lstm, "weight_hh_l0" + suffix).copy_(P["lstm_whh_" + d])
            getattr(lstm, "bias_ih_l0" + suffix).copy_(P["lstm_b_" + d])
            getattr(lstm, "bias_hh_l0" + suffix).zero_()
        out, _ = lstm(x.detach()[:, None, :])
    return out[:, 0, :].numpy()


# The dense columns the per-modality normalization covers besides the E text columns (eaca_features.h:
# kWheelX, kWheelY, kTimeSin, kTimeCos, kHasTime).
WHEEL_TIME_COLUMNS = [13, 14, 15, 16, 17]


def modality_norm(x, E, P):
    """x with its text, wheel and time columns each layer-normalized (torch.nn.functional.layer_norm,
    eps 1e-5), with the gain mnorm_w and bias mnorm_b (EacaConfig::modality_norm)."""
    cols = list(range(E)) + [E + c for c in WHEEL_TIME_COLUMNS]
    parts, start = [], 0
    for size in (E, 2, 3):
        seg = x[:, cols[start:start + size]]
        parts.append(torch.nn.functional.layer_norm(seg, (size,), P["mnorm_w"][start:start + size],
                                                    P["mnorm_b"][start:start + size], eps=1e-5))
        start += size
    normed = torch.cat(parts, dim=1)
    out = x.clone()
    out[:, cols] = normed
    return out


def torch_forward(trace, P):
    """Salience, has-emotion and emotion-source logits (and h0, h1, g) from the trace's features."""
    f, sw = trace["features"], trace["switches"]
    U = f["units"]
    fuzzy = sw["normalizer"] == "fuzzy"
    terms = sw["emotion_terms"]
    ids, off = f["token_ids"], f["token_offsets"]
    E = P["emb"].shape[1]
    rows = []
    for u in range(U):
        a, b = int(off[u]), int(off[u + 1])
        mean = P["emb"][torch.as_tensor(ids[a:b], dtype=torch.long)].mean(0) if b > a else torch.zeros(E, dtype=torch.float64)
        rows.append(torch.cat([mean, torch.as_tensor(f["dense"][u], dtype=torch.float64)]))
    x = torch.stack(rows)
    if sw.get("modality_norm"):
        x = modality_norm(x, E, P)
    h0 = torch.tanh(x @ P["w_in"].T + P["b_in"])
    times = torch.as_tensor(f["times"], dtype=torch.float64) if len(f["times"]) else None
    use_times = terms and times is not None and sw["time_decay"] > 0.0
    h1 = h0
    if sw["context_encoder"] and sw["context"] == "bilstm":
        ctx = torch.cat([lstm_direction(h0, P["lstm_wih_f"], P["lstm_whh_f"], P["lstm_b_f"], False),
                         lstm_direction(h0, P["lstm_wih_b"], P["lstm_whh_b"], P["lstm_b_b"], True)], dim=1)
        np.testing.assert_allclose(ctx.detach().numpy(), torch_nn_bilstm(h0, P), rtol=0, atol=1e-12)
        h1 = h0 + ctx
    elif sw["context_encoder"]:
        ctx = attend(h0 @ P["wq"].T, h0 @ P["wk"].T, h0 @ P["wv"].T, fuzzy,
                     times if use_times else None, times if use_times else None, sw["time_decay"])
        h1 = h0 + ctx
    D = h1.shape[1]
    cust = torch.as_tensor(f["customer_units"], dtype=torch.long)
    g = torch.zeros(D, dtype=torch.float64)
    if sw["emotion_attention"] and len(cust) > 0:
        wheel = torch.as_tensor(f["wheel"], dtype=torch.float64)
        if not terms:
            wheel = torch.zeros_like(wheel)
        ke = torch.cat([h1 @ P["wke"].T, wheel], dim=1)
        qe = torch.cat([h1[cust] @ P["wqe"].T, wheel[cust]], dim=1)
        boost = P["boost"][0] * torch.as_tensor(f["emotion"], dtype=torch.float64) if terms else None
        if terms and sw.get("boost_gate"):  # g_qj = sigmoid(qe_q . w_q + ke_j . w_k + b_g), issue 27 item 2
            Ae = qe.shape[1]
            W = P["boost_gate"]
            boost = torch.sigmoid((qe @ W[:Ae])[:, None] + (ke @ W[Ae:2 * Ae])[None, :] + W[2 * Ae]) * boost[None, :]
        e = attend(qe, ke, h1, fuzzy, times[cust] if use_times else None, times if use_times else None,
                   sw["time_decay"], boost)
        g = e.mean(0)
    z = torch.tanh(torch.cat([h1, g.expand(U, D)], dim=1) @ P["ws"].T + P["bs"])
    sal = z @ P["vs"] + P["cs"][0]
    extra = torch.tensor([1.0 if f["any_expressed"] else 0.0, f["max_intensity"]], dtype=torch.float64)
    has = torch.cat([g, extra]) @ P["wh"] + P["bh"][0]
    mu = torch.as_tensor(f["mention_unit"], dtype=torch.long)
    src = h1[mu] @ P["wm"] + P["wi"][0] * torch.as_tensor(f["mention_intensity"], dtype=torch.float64) + P["bm"][0]
    return h0, h1, g, sal, has, src


def torch_loss(trace, sal, has, src):
    t = trace["targets"]
    coverage, source = trace["loss_weights"]
    bce = torch.nn.functional.binary_cross_entropy_with_logits
    loss = bce(sal, torch.as_tensor(t["salience"], dtype=torch.float64), reduction="mean")
    if t["has_emotion"] >= 0.0:
        loss = loss + coverage * bce(has, torch.tensor(float(t["has_emotion"]), dtype=torch.float64))
    y = torch.as_tensor(t["mention"], dtype=torch.float64)
    labelled = y >= 0.0
    if labelled.any():
        loss = loss + source * bce(src[labelled], y[labelled], reduction="mean")
    return loss


def perturbed_params(trace, seed):
    """The seeded initialization with every tensor (biases and boost too) moved off its start value, so
    that no gradient path is hidden by a zero."""
    rng = np.random.default_rng(seed)
    return {name: (a + rng.uniform(-0.3, 0.3, a.shape)).astype(np.float32) for name, a in trace["params"].items()}


CASES = [
    # (language, sample, timed, attention, context encoder (None: off), emotion attention)
    ("zh", 1, True, "eaca", "attention", True),  # times: time decay in both layers; [怒] and 太差 expressed
    ("zh", 1, True, "fuzzy", "attention", True),
    ("zh", 1, True, "plain", "attention", True),  # no wheel, boost or decay
    ("en", 0, True, "eaca", "attention", True),   # ISO 8601 times, 😡 and "unacceptable"
    ("en", 1, False, "eaca", "attention", True),  # untimed
    ("en", 1, False, "fuzzy", None, True),        # no context layer
    ("zh", 0, True, "eaca", "attention", False),  # no EACA attention: g = 0
    ("zh", 1, True, "eaca", "bilstm", True),      # the BiLSTM context encoder against torch.nn.LSTM
    ("en", 0, True, "plain", "bilstm", True),
]
SMALL = dict(hash_buckets=257, embed_dim=5, hidden=6, attn_dim=3)
# The default widths (E = 4, D = 64, A = 16): linear_forward's inner loops then run whole vectors,
# where at the small widths they are all remainder.
DEFAULT_WIDTHS = dict(hash_buckets=257, embed_dim=4, hidden=64, attn_dim=16)
WIDTH_CASES = [case + (SMALL,) for case in CASES] + [
    ("zh", 1, True, "eaca", "attention", True, DEFAULT_WIDTHS),
    ("en", 0, True, "eaca", "attention", True, DEFAULT_WIDTHS),
    ("en", 0, True, "eaca", "bilstm", True, DEFAULT_WIDTHS),
]


# Per-modality normalization (issue 27 item 7), timed and untimed, under both context encoders.
NORM_CASES = [case + (dict(SMALL, modality_norm=True),) for case in [
    ("zh", 1, True, "eaca", "bilstm", True),
    ("en", 1, False, "eaca", "attention", True),
    ("en", 0, True, "eaca", "attention", True),
]] + [("zh", 1, True, "eaca", "bilstm", True, dict(DEFAULT_WIDTHS, modality_norm=True, zero_text_init=True))]

# The gated boost (issue 27 item 2): timed and untimed, both context encoders, and the default widths.
GATE_CASES = [case + (dict(SMALL, boost_gate=True),) for case in [
    ("zh", 1, True, "eaca", "bilstm", True),
    ("en", 1, False, "eaca", "attention", True),
    ("en", 0, True, "eaca", "attention", True),
]] + [("zh", 1, True, "eaca", "bilstm", True, dict(DEFAULT_WIDTHS, boost_gate=True))]


@pytest.mark.parametrize("lang,index,timed,attention,context,emotion,widths", WIDTH_CASES + NORM_CASES + GATE_CASES)
def test_forward_and_gradients_match_pytorch(lang, index, timed, attention, context, emotion, widths):
    d = dialogue(lang, index, timed)
    kw = dict(attention=attention, context_encoder=context is not None, context=context or "attention",
              emotion_attention=emotion, seed=7, **widths)
    base = kessel._eaca_trace(d, **kw)
    trace = kessel._eaca_trace(d, params=perturbed_params(base, 11), **kw)
    f = trace["features"]
    assert f["units"] >= 4
    assert len(f["customer_units"]) >= 1
    if timed:
        assert len(f["times"]) == f["units"]
    if attention != "plain" and emotion:
        assert f["any_expressed"] and np.abs(f["wheel"]).sum() > 0 and f["emotion"].max() > 0

    P = {name: torch.tensor(a, dtype=torch.float64, requires_grad=True) for name, a in trace["params"].items()}
    h0, h1, g, sal, has, src = torch_forward(trace, P)
    out = trace["outputs"]
    np.testing.assert_allclose(out["h0"], h0.detach().numpy(), rtol=0, atol=FWD_ATOL)
    np.testing.assert_allclose(out["h1"], h1.detach().numpy(), rtol=0, atol=FWD_ATOL)
    np.testing.assert_allclose(out["g"], g.detach().numpy(), rtol=0, atol=FWD_ATOL)
    np.testing.assert_allclose(out["salience"], sal.detach().numpy(), rtol=0, atol=FWD_ATOL)
    assert out["has_logit"] == pytest.approx(has.item(), abs=FWD_ATOL)
    np.testing.assert_allclose(out["mention_logit"], src.detach().numpy(), rtol=0, atol=FWD_ATOL)
    if emotion and len(f["customer_units"]) > 0:
        assert np.abs(out["g"]).max() > 1e-3  # the EACA attention contributes
    else:
        assert np.all(out["g"] == 0.0)

    loss = torch_loss(trace, sal, has, src)
    assert trace["loss"] == pytest.approx(loss.item(), rel=1e-5)
    loss.backward()
    nonzero = 0
    for name, grad in trace["grads"].items():
        want = P[name].grad.numpy() if P[name].grad is not None else np.zeros_like(grad, dtype=np.float64)
        scale = max(1e-3, float(np.abs(want).max()))
        np.testing.assert_allclose(grad, want, rtol=0, atol=GRAD_RTOL * scale, err_msg=name)
        nonzero += bool(np.abs(want).max() > 0)
    # Every tensor that takes part has a gradient: the attention projections only with their layers,
    # the boost only with the emotion terms.
    assert ("lstm_wih_f" in trace["params"]) == (context == "bilstm")
    assert ("wq" in trace["params"]) == (context != "bilstm")
    expected_zero = set()
    if context is None:
        expected_zero |= {"wq", "wk", "wv"}
    if not emotion:
        expected_zero |= {"wqe", "wke", "boost"}
    if attention == "plain":
        expected_zero |= {"boost"}
    for name in expected_zero:
        assert np.all(trace["grads"][name] == 0.0), name
    assert nonzero == len(trace["grads"]) - len(expected_zero)


def test_labels_are_the_training_labels():
    # The targets come from make_example: an oracle selection of units and a mention label per expressed
    # mention (1 when a reference repeats the term).
    trace = kessel._eaca_trace(dialogue("zh", 1))
    t = trace["targets"]
    assert set(np.unique(t["salience"])) <= {0.0, 1.0} and t["salience"].sum() >= 1
    assert len(t["mention"]) == len(trace["features"]["mention_unit"])
    assert t["has_emotion"] in (0.0, 1.0)


@pytest.mark.parametrize("kwargs,message", [
    (dict(attention="softmax"), "attention must be eaca, plain or fuzzy"),
    (dict(context="lstm"), "context must be bilstm or attention, got 'lstm'"),
    (dict(hidden=0), "must be >= 1"),
    (dict(params={"emb": np.zeros((512, 6), np.float32)}), "params must name all 18 tensors"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        kessel._eaca_trace(dialogue("en", 0), **kwargs)


def test_params_of_the_wrong_size_are_refused():
    base = kessel._eaca_trace(dialogue("en", 0))
    params = dict(base["params"])
    params["ws"] = np.zeros((3, 3), np.float32)
    with pytest.raises(ValueError, match=r"params\['ws'\] must have 128 elements, got 9"):
        kessel._eaca_trace(dialogue("en", 0), params=params)
