"""An independent PyTorch implementation of kessel's attention semantics (include/kessel/attention.h).

Written from the header's description only, step by step, with plain tensor ops so that autograd gives
the gradients: it materializes every [B, H, Lq, Lk] intermediate and is meant for float64 parity tests,
not for speed. The T5 bucket function follows the published T5 / HuggingFace formula.

    res = attention_ref(q, k, v, normalizer="fuzzy", m=2.0, causal=True, ...)
    res["out"], res["lse"], res["weights"], res["fully_masked_rows"], res["crisp_rows"]

q [B, H, Lq, D], k [B, H, Lk, D], v [B, H, Lk, Dv] as torch tensors (float64 recommended); optional
tensor inputs are torch tensors too (bias, rel_bias and key_boost may require grad, and so may m and
time_decay as 0-d tensors). Assumptions where
the header leaves a choice open: zscore uses the population variance (divide by the number of
visible keys); a row with no visible key keeps sim untouched by zscore (it is fully masked anyway).
"""

import math

import torch


def t5_relative_bucket(rel, num_buckets, max_distance, bidirectional):
    """T5 bucket of rel = pos_k - pos_q (memory position minus query position), as in T5's
    _relative_position_bucket: half the buckets per direction when bidirectional, exact buckets for
    small distances, logarithmic ones up to max_distance, the last bucket beyond."""
    bucket = 0
    n = -rel
    if bidirectional:
        num_buckets //= 2
        if n < 0:  # key after the query
            bucket += num_buckets
        n = abs(n)
    else:
        n = max(n, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return bucket + n
    large = max_exact + int(
        math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return bucket + min(large, num_buckets - 1)


def _sq_distances(q, k):
    """d2[b,h,i,j] = |q_i - k_j|^2; direct differences when small (exact zeros for equal rows)."""
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    if B * H * Lq * Lk * D <= 4_000_000:
        return ((q[:, :, :, None, :] - k[:, :, None, :, :]) ** 2).sum(-1)
    qn = (q * q).sum(-1)
    kn = (k * k).sum(-1)
    return (qn[..., :, None] + kn[..., None, :] - 2.0 * q @ k.transpose(-1, -2)).clamp_min(0.0)


def _visible(B, H, Lq, Lk, pos_q, pos_k, q_times, k_times, *, causal, window, min_lag, lag_by_time,
             chunk_size, key_lengths, allowed_keys, mask):
    """Step 6: every mask ANDed, as a bool tensor [B, H, Lq, Lk]."""
    pq = pos_q[:, None]
    pk = pos_k[None, :]
    vis = torch.ones(B, H, Lq, Lk, dtype=torch.bool)
    if causal:
        vis &= (pk <= pq)
    if window is not None and window >= 0:
        vis &= ((pq - pk).abs() <= window)
    if min_lag is not None and min_lag >= 0:
        if lag_by_time:
            vis &= (k_times[:, None, None, :] <= q_times[:, None, :, None] - min_lag)
        else:
            vis &= (pk <= pq - min_lag)
    if chunk_size:
        cq = torch.div(pq, chunk_size, rounding_mode="floor")
        ck = torch.div(pk, chunk_size, rounding_mode="floor")
        bridge = (ck < cq) & (pk % chunk_size == chunk_size - 1)
        vis &= (cq == ck) | bridge
    if key_lengths is not None:
        kl = torch.as_tensor(key_lengths).reshape(B)
        vis &= (torch.arange(Lk)[None, :] < kl[:, None])[:, None, None, :]
    if allowed_keys is not None:
        vis &= (torch.as_tensor(allowed_keys).reshape(B, Lk) != 0)[:, None, None, :]
    if mask is not None:
        vis &= (torch.as_tensor(mask) != 0)
    return vis


def attention_ref(q, k, v, *, similarity="dot", normalizer="softmax", m=2.0, temperature=1.0,
                  scale=None, beta=0.5, fuzzy_eps=1e-12, fuzzy_match_tol=1e-6, cosine_eps=1e-8,
                  zscore=False, zscore_eps=1e-5, causal=False, window=-1, min_lag=-1,
                  lag_by_time=False, chunk_size=0, key_lengths=None, allowed_keys=None, mask=None,
                  bias=None, alibi_slopes=None, rel_bias=None, rel_buckets=None,
                  rel_max_distance=128, rel_bidirectional=True, times=None, time_decay=0.0,
                  time_decay_mode="additive", key_boost=None, boost_gate=None):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    pos_q = torch.arange(Lq) + (Lk - Lq)  # aligned at the end (KV-cache decoding)
    pos_k = torch.arange(Lk)
    q_times = k_times = None
    if times is not None:
        q_times, k_times = times if isinstance(times, tuple) else (times, times)
        q_times = torch.as_tensor(q_times, dtype=q.dtype).reshape(B, Lq)
        k_times = torch.as_tensor(k_times, dtype=q.dtype).reshape(B, Lk)

    vis = _visible(B, H, Lq, Lk, pos_q, pos_k, q_times, k_times, causal=causal, window=window,
                   min_lag=min_lag, lag_by_time=lag_by_time, chunk_size=chunk_size,
                   key_lengths=key_lengths, allowed_keys=allowed_keys, mask=mask)
    any_visible = vis.any(-1)  # [B, H, Lq]

    # 1. similarity
    crisp = torch.zeros(B, H, Lq, dtype=torch.bool)
    match = None
    if normalizer == "fuzzy":
        assert similarity in ("dot", "neg_sq_euclidean"), similarity
        assert m > 1
        d2 = _sq_distances(q, k)
        qn2 = (q * q).sum(-1)
        kn2 = (k * k).sum(-1)
        match = vis & (d2 <= fuzzy_match_tol * (qn2[..., :, None] + kn2[..., None, :]))
        crisp = match.any(-1)
        # Crisp rows take the FCM convention below; keep their soft branch finite (no 0 in the log).
        d2_safe = torch.where(crisp[..., None], torch.ones_like(d2), d2)
        sim = -torch.log(d2_safe + fuzzy_eps) / (m - 1.0)
    else:
        dot_scale = 1.0 / math.sqrt(D) if scale is None else scale
        dots = q @ k.transpose(-1, -2)
        if similarity == "dot":
            sim = dot_scale * dots
        elif similarity in ("cosine", "constrained_cosine"):
            # max(|x|, eps) written as sqrt(max(|x|^2, eps^2)): same value, no 0/0 in the gradient
            qn = (q * q).sum(-1).clamp_min(cosine_eps ** 2).sqrt()
            kn = (k * k).sum(-1).clamp_min(cosine_eps ** 2).sqrt()
            cos = dots / (qn[..., :, None] * kn[..., None, :])
            if similarity == "cosine":
                sim = cos
            else:
                sim = (1.0 - beta) * cos + beta * torch.sigmoid(dot_scale * dots)
        elif similarity == "neg_sq_euclidean":
            sim = -_sq_distances(q, k)
        else:
            raise ValueError(similarity)

    # 2. zscore over the keys visible to each row (population variance)
    if zscore:
        visf = vis.to(sim.dtype)
        n = visf.sum(-1, keepdim=True).clamp_min(1.0)
        mean = (sim * visf).sum(-1, keepdim=True) / n
        var = (((sim - mean) * visf) ** 2).sum(-1, keepdim=True) / n
        sim = (sim - mean) / torch.sqrt(var + zscore_eps)

    dt = None
    if q_times is not None:
        dt = (q_times[:, None, :, None] - k_times[:, None, None, :]).abs()  # [B, 1, Lq, Lk]

    # A tensor time_decay (learnable) keeps its terms even at 0, so that its gradient is defined there.
    decay_on = dt is not None and (torch.is_tensor(time_decay) or time_decay != 0.0)
    # 3. multiplicative decay
    if time_decay_mode == "multiplicative" and decay_on:
        sim = sim * torch.exp(-time_decay * dt)
    # 4. temperature
    if normalizer == "softmax":
        sim = sim / temperature

    # 5. additive terms
    logit = sim
    if bias is not None:
        logit = logit + bias
    rel = pos_k[None, :] - pos_q[:, None]  # [Lq, Lk]
    if alibi_slopes is not None:
        slopes = torch.as_tensor(alibi_slopes, dtype=q.dtype).reshape(1, H, 1, 1)
        logit = logit - slopes * rel.abs().to(q.dtype)
    if rel_bias is not None:
        nb = rel_buckets if rel_buckets is not None else rel_bias.shape[-1]
        lo = int(rel.min())
        table = torch.tensor([t5_relative_bucket(r, nb, rel_max_distance, rel_bidirectional)
                              for r in range(lo, int(rel.max()) + 1)], dtype=torch.long)
        buckets = table[rel - lo]  # [Lq, Lk]
        logit = logit + rel_bias.reshape(H, nb)[:, buckets][None]  # [1, H, Lq, Lk]
    if time_decay_mode == "additive" and decay_on:
        logit = logit - time_decay * dt
    if key_boost is not None:
        boost = key_boost.reshape(B, Lk)[:, None, None, :]
        if boost_gate is not None:  # g_ij = sigmoid(<w_q, q_i> + <w_k, k_j> + b_g), per head
            W = boost_gate.reshape(H, 2 * D + 1)
            u = torch.einsum("bhid,hd->bhi", q, W[:, :D]) + W[:, 2 * D][None, :, None]
            w = torch.einsum("bhjd,hd->bhj", k, W[:, D:2 * D])
            boost = torch.sigmoid(u[..., :, None] + w[..., None, :]) * boost
        logit = logit + boost

    # 6.-7. mask and normalize; fully masked rows get a harmless finite row, replaced below
    neg_inf = torch.tensor(-math.inf, dtype=q.dtype)
    logit = torch.where(vis, logit, neg_inf)
    logit = torch.where(any_visible[..., None], logit, torch.zeros_like(logit))
    lse = torch.logsumexp(logit, -1)
    weights = torch.exp(logit - lse[..., None])
    if normalizer == "fuzzy":
        crisp_w = match.to(q.dtype) / match.sum(-1, keepdim=True).clamp_min(1).to(q.dtype)
        weights = torch.where(crisp[..., None], crisp_w, weights)
        lse = torch.where(crisp, torch.tensor(math.inf, dtype=q.dtype), lse)
    weights = torch.where(any_visible[..., None], weights, torch.zeros_like(weights))
    lse = torch.where(any_visible, lse, neg_inf)

    # 8. weighted values
    out = weights @ v
    return {
        "out": out,
        "lse": lse,
        "weights": weights,
        "fully_masked_rows": int((~any_visible).sum()),
        "crisp_rows": int((crisp & any_visible).sum()),
    }
