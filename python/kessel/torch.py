"""kessel's fused attention as a PyTorch op with autograd (docs/attention.md, "The PyTorch op").

    import kessel.torch
    out = kessel.torch.attention(q, k, v, causal=True)                   # softmax
    m = torch.tensor(2.0, requires_grad=True)
    out = kessel.torch.attention(q, k, v, normalizer="fuzzy", m=m)      # learnable fuzzifier
    out.sum().backward()                                                 # q.grad, k.grad, v.grad, m.grad

A thin layer over ``kessel.attention`` / ``kessel.attention_backward`` (the fused forward and
backward of include/kessel/attention.h); it adds no arithmetic of its own. Every spec keyword of
``kessel.attention`` is accepted, with the same meaning.

- q, k, v: float32 CPU tensors, [B, H, L, D], [H, L, D] or [L, D]; the output takes q's rank.
- Gradients: q, k, v; the score terms bias, rel_bias, key_boost and boost_gate (tensors); the spec's scalars m
  (normalizer="fuzzy"), time_decay (needs times) and temperature_coef (temperature="adaptive"),
  given as 0-d or one-element tensors. Any other
  argument that requires grad is refused, and so is a double backward.
- Tensor arguments other than those (mask, allowed_keys, key_lengths, alibi_slopes, times) may be
  tensors without grad or numpy arrays; scalars may be numbers or 0-d tensors without grad.
- Zero-copy: contiguous float32 q, k, v, bias, rel_bias and key_boost are read in place (the
  kernels see the tensors' memory) and outputs and gradients are numpy arrays wrapped by
  torch.from_numpy. A non-contiguous tensor is copied once (``.contiguous()``).
- threads: defaults to torch.get_num_threads(), so that the op runs on the threads PyTorch uses.
  Results do not depend on the thread count (kessel's kernels are bit-identical for any count).
"""
from __future__ import annotations

import numbers
from typing import Any, Dict, Tuple

import numpy as np
import torch

from . import _kessel

__all__ = ["attention"]

# Arguments with a gradient, and the key attention_backward returns it under.
_TENSOR_GRADS = {"bias": "dbias", "rel_bias": "drel_bias", "key_boost": "dkey_boost",
                 "boost_gate": "dboost_gate"}
_SCALAR_GRADS = {"m": "dm", "time_decay": "dtime_decay", "temperature_coef": "dtemperature_coef"}
# Tensor-valued arguments without a gradient.
_CONSTANT_TENSORS = ("mask", "allowed_keys", "key_lengths", "alibi_slopes", "emotion_ratio")
# Number-valued spec keywords without a gradient.
_CONSTANT_SCALARS = ("temperature", "scale", "beta", "fuzzy_eps", "fuzzy_match_tol", "cosine_eps",
                     "zscore_eps", "balance")
# Keywords of the NumPy entry points that do not belong to this op.
_REFUSED = {"return_lse": "the op returns the output tensor only",
            "return_stats": "the op returns the output tensor only",
            "out": "the op runs its own forward", "lse": "the op runs its own forward"}
_LEARNABLE = "q, k, v, bias, rel_bias, key_boost, boost_gate, m, time_decay and temperature_coef"


def _fail(message: str, kind=ValueError):
    raise kind(f"kessel.torch.attention: {message}")


def _float32_array(name: str, t: torch.Tensor) -> np.ndarray:
    """The tensor's memory as a float32 numpy array (no copy when contiguous)."""
    if t.dtype != torch.float32:
        _fail(f"{name} has dtype {t.dtype}; kessel's kernels are float32 (use {name}.float())",
              TypeError)
    if t.device.type != "cpu":
        _fail(f"{name} is on {t.device}; kessel runs on the CPU (use {name}.cpu())")
    return t.detach().contiguous().numpy()


def _constant(name: str, value: Any) -> Any:
    """An argument without a gradient: tensors become numpy arrays, requires_grad is refused."""
    if isinstance(value, tuple):  # times = (q_times, k_times)
        return tuple(_constant(f"{name}[{i}]", x) for i, x in enumerate(value))
    if isinstance(value, torch.Tensor):
        if value.requires_grad:
            _fail(f"{name} requires grad, but it has no gradient here (gradients exist for "
                  f"{_LEARNABLE})")
        if value.device.type != "cpu":
            _fail(f"{name} is on {value.device}; kessel runs on the CPU")
        return value.detach().contiguous().numpy()
    return value


def _scalar_value(name: str, value: Any) -> float:
    """A spec scalar as a Python float; value is a number or a one-element tensor."""
    if isinstance(value, torch.Tensor):
        if value.numel() != 1:
            _fail(f"{name} must be a number or a one-element tensor, got shape {list(value.shape)}")
        return float(value.detach().cpu().reshape(()).item())
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    _fail(f"{name} must be a number or a one-element tensor, got {value!r}", TypeError)


def _split_spec(spec: Dict[str, Any]):
    """(static keywords for the NumPy entry points, {name: tensor} of learnable inputs)."""
    static: Dict[str, Any] = {}
    learnable: Dict[str, torch.Tensor] = {}
    for key, value in spec.items():
        if key in _REFUSED:
            _fail(f"keyword '{key}' is not accepted: {_REFUSED[key]}")
        if value is None:
            continue
        if key in _TENSOR_GRADS:
            if isinstance(value, torch.Tensor):
                learnable[key] = value
            else:
                static[key] = np.asarray(value)
        elif key in _SCALAR_GRADS:
            if isinstance(value, torch.Tensor):
                _scalar_value(key, value)  # checks the shape
                learnable[key] = value
            else:
                static[key] = _scalar_value(key, value)
        elif key in _CONSTANT_SCALARS:
            if isinstance(value, torch.Tensor) and value.requires_grad:
                _fail(f"{key} requires grad, but it has no gradient here (gradients exist for "
                      f"{_LEARNABLE})")
            static[key] = _scalar_value(key, value) if isinstance(value, torch.Tensor) else value
        elif key in _CONSTANT_TENSORS or key == "times":
            static[key] = _constant(key, value)
        else:
            static[key] = value  # strings, bools, integers: the binding checks them
    static.setdefault("threads", torch.get_num_threads())
    return static, learnable


class _KesselAttention(torch.autograd.Function):
    """Forward and backward through kessel's fused kernels. Inputs after the first two: q, k, v,
    then the learnable tensors in the order of `names`."""

    @staticmethod
    def forward(ctx, static, names, q, k, v, *learnable):
        arrays = {"q": _float32_array("q", q), "k": _float32_array("k", k),
                  "v": _float32_array("v", v)}
        call = dict(static)
        for name, t in zip(names, learnable):
            if name in _TENSOR_GRADS:
                call[name] = _float32_array(name, t)
            else:
                call[name] = _scalar_value(name, t)
        out, lse = _kessel.attention(arrays["q"], arrays["k"], arrays["v"], return_lse=True, **call)
        out_t = torch.from_numpy(out)
        # Saved so that autograd refuses a backward after an in-place change of any of them; the
        # backward reads the numpy views (or the one contiguous copy) that the forward read.
        ctx.save_for_backward(q, k, v, out_t, *learnable)
        ctx.call = call
        ctx.arrays = arrays
        ctx.names = names
        ctx.shapes = [(t.shape, t.dtype) for t in learnable]
        ctx.lse = lse
        return out_t

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, dout):
        out = ctx.saved_tensors[3].numpy()  # saved_tensors checks the version counters
        dout = _float32_array("the output's gradient", dout)
        a = ctx.arrays
        g = _kessel.attention_backward(a["q"], a["k"], a["v"], dout, out=out, lse=ctx.lse,
                                       **ctx.call)
        grads = [torch.from_numpy(g["dq"]), torch.from_numpy(g["dk"]), torch.from_numpy(g["dv"])]
        for name, (shape, dtype) in zip(ctx.names, ctx.shapes):
            if name in _TENSOR_GRADS:
                grads.append(torch.from_numpy(g[_TENSOR_GRADS[name]]).reshape(shape))
            else:
                grads.append(torch.tensor(g[_SCALAR_GRADS[name]], dtype=dtype).reshape(shape))
        return (None, None, *grads)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, **spec: Any) -> torch.Tensor:
    """Attention of q over k, v by kessel's fused kernels, differentiable with autograd.

    spec: the keywords of ``kessel.attention`` (similarity, normalizer, m, masks, score terms,
    threads, ...). bias, rel_bias, key_boost, boost_gate (tensors) and m, time_decay, temperature_coef
    (one-element tensors) get gradients when they require grad. Returns out [..., Lq, Dv] in q's rank.
    """
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            _fail(f"{name} must be a torch.Tensor, got {type(t).__name__}", TypeError)
        if t.dtype != torch.float32:
            _fail(f"{name} has dtype {t.dtype}; kessel's kernels are float32 (use {name}.float())",
                  TypeError)
        if not 2 <= t.dim() <= 4:
            _fail(f"{name} has shape {list(t.shape)}; expected [B, H, L, D], [H, L, D] or [L, D]")
    static, learnable = _split_spec(spec)
    if static.get("kv_dtype") == "int8" and torch.is_grad_enabled() and (
            any(t.requires_grad for t in (q, k, v)) or
            any(t.requires_grad for t in learnable.values())):
        _fail("kv_dtype='int8' is inference-only (no backward); run it under torch.no_grad() or "
              "with inputs that do not require grad")
    if "m" in learnable and learnable["m"].requires_grad and static.get("normalizer") != "fuzzy":
        _fail("m requires grad, but m is only used by normalizer='fuzzy'")
    if "time_decay" in learnable and learnable["time_decay"].requires_grad and "times" not in static:
        _fail("time_decay requires grad, but no times are given")
    names: Tuple[str, ...] = tuple(learnable)
    return _KesselAttention.apply(static, names, q, k, v, *learnable.values())
