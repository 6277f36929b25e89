#!/usr/bin/python3
"""A small transformer learns to sort digits with kessel's attention inside PyTorch (kessel.torch).

    PYTHONPATH=build/python /usr/bin/python3 examples/torch_fuzzy_attention.py [--steps 200]
        [--length 64] [--out torch_fuzzy_attention.png]

The task: a sequence of `--length` random digits (0-9) in, the same digits sorted out, position by
position (cross-entropy over the 10 digits at every position). The model: token and position
embeddings (d_model 64), two pre-LayerNorm blocks of 4-head attention (head size 16) and an MLP, a
linear read-out. The same model, seed and batches are trained five times; only the attention
differs:
  eager softmax        PyTorch eager softmax(Q K^T / sqrt(d)) V (the baseline)
  kessel softmax       kessel.torch.attention(q, k, v)
  kessel fuzzy m=2     kessel.torch.attention(q, k, v, normalizer="fuzzy", m=2.0), fixed
  kessel fuzzy learned m = 1 + softplus(theta) per block, theta a parameter trained with the rest
                       (start m = 2): the gradient dL/dm comes from kessel's fused backward
  eager fuzzy learned  the same learned-m model with the fuzzy membership written in PyTorch eager
                       (softmax(-ln(d2 + eps) / (m - 1))): the reference for the kessel curve and the
                       baseline for its speed
It prints a line per 50 steps, the final losses and sequence accuracies on held-out batches, the
learned m of each block, and the speed ratios (eager ms per training step over kessel ms, whole step
and attention alone), and writes the loss curves to a PNG (matplotlib, Debian's python3-matplotlib).
"""

import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import kessel.torch as kt

VOCAB = 10
EPS = 1e-12


def eager_softmax_attention(q, k, v):
    return torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), -1) @ v


def eager_fuzzy_attention(q, k, v, m):
    qn = (q * q).sum(-1, keepdim=True)
    kn = (k * k).sum(-1, keepdim=True).transpose(-1, -2)
    d2 = (qn + kn - 2.0 * q @ k.transpose(-1, -2)).clamp_min(0.0)
    return torch.softmax(-torch.log(d2 + EPS) / (m - 1.0), -1) @ v


class Attention(nn.Module):
    def __init__(self, d_model, heads, variant):
        super().__init__()
        self.heads, self.variant = heads, variant
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        # m = 1 + softplus(theta): m > 1 whatever theta; theta = ln(e - 1) gives m = 2.
        self.theta = nn.Parameter(torch.tensor(math.log(math.e - 1.0)),
                                  requires_grad=variant.endswith("learned"))

    def m(self):
        return 1.0 + F.softplus(self.theta)

    def attend(self, q, k, v):
        if self.variant == "eager softmax":
            return eager_softmax_attention(q, k, v)
        if self.variant == "kessel softmax":
            return kt.attention(q, k, v)
        if self.variant == "kessel fuzzy m=2":
            return kt.attention(q, k, v, normalizer="fuzzy", m=2.0)
        if self.variant == "kessel fuzzy learned":
            return kt.attention(q, k, v, normalizer="fuzzy", m=self.m())
        if self.variant == "eager fuzzy learned":
            return eager_fuzzy_attention(q, k, v, self.m())
        raise ValueError(self.variant)

    def forward(self, x):
        B, L, d = x.shape
        # [B, L, 3, H, Dh] -> three contiguous [B, H, L, Dh] tensors (kessel reads them in place).
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        out = self.attend(q.contiguous(), k.contiguous(), v.contiguous())
        return self.proj(out.transpose(1, 2).reshape(B, L, d))


class Block(nn.Module):
    def __init__(self, d_model, heads, variant):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = Attention(d_model, heads, variant)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Sorter(nn.Module):
    def __init__(self, length, variant, d_model=64, heads=4, blocks=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d_model)
        self.pos = nn.Parameter(torch.randn(length, d_model) * 0.1)
        self.blocks = nn.ModuleList(Block(d_model, heads, variant) for _ in range(blocks))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, VOCAB)

    def forward(self, tokens):
        x = self.tok(tokens) + self.pos
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def batch(generator, size, length):
    x = torch.randint(0, VOCAB, (size, length), generator=generator)
    return x, x.sort(dim=1).values


def evaluate(model, length, batches=4, size=128):
    g = torch.Generator().manual_seed(12345)  # the same held-out batches for every variant
    loss = acc = 0.0
    with torch.no_grad():
        for _ in range(batches):
            x, y = batch(g, size, length)
            logits = model(x)
            loss += F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1)).item() / batches
            acc += (logits.argmax(-1) == y).all(1).float().mean().item() / batches
    return loss, acc


def train(variant, args):
    torch.manual_seed(0)  # same initial weights for every variant
    model = Sorter(args.length, variant)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    data = torch.Generator().manual_seed(1)  # same batches for every variant
    losses, step_times = [], []
    for step in range(1, args.steps + 1):
        x, y = batch(data, args.batch, args.length)
        t0 = time.perf_counter()
        opt.zero_grad()
        loss = F.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1))
        loss.backward()
        opt.step()
        step_times.append(time.perf_counter() - t0)
        losses.append(loss.item())
        if step % 50 == 0 or step == args.steps:
            ms = [f"{float(b.attn.m()):.3f}" for b in model.blocks]
            m_text = f" | m {', '.join(ms)}" if "fuzzy" in variant else ""
            print(f"{variant:<21} step {step:4d} | loss {sum(losses[-50:]) / len(losses[-50:]):.4f}"
                  f"{m_text} | {1e3 * sum(step_times[-50:]) / len(step_times[-50:]):.1f} ms/step",
                  flush=True)
    return model, losses, step_times


def attention_ms(variant, args, repeats=20):
    """Median ms of one attention forward + backward at the model's shapes (one block)."""
    torch.manual_seed(0)
    attn = Attention(64, 4, variant)
    q, k, v = (torch.randn(args.batch, 4, args.length, 16, requires_grad=True) for _ in range(3))
    times = []
    for _ in range(repeats + 3):
        t0 = time.perf_counter()
        attn.attend(q, k, v).sum().backward()
        times.append(time.perf_counter() - t0)
    times = sorted(times[3:])
    return 1e3 * times[len(times) // 2]


def plot(curves, path, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    window = 10
    for variant, losses in curves.items():
        smooth = [sum(losses[max(0, i - window + 1):i + 1]) / (i + 1 - max(0, i - window + 1))
                  for i in range(len(losses))]
        ax.plot(range(1, len(losses) + 1), smooth, label=variant,
                linestyle="--" if variant.startswith("eager") else "-")
    ax.set_xlabel("training step")
    ax.set_ylabel(f"cross-entropy (running mean of {window})")
    ax.set_yscale("log")
    ax.set_title(f"sorting {args.length} digits: 2-block transformer, attention variants")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--length", type=int, default=64)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="torch_fuzzy_attention.png")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)  # kessel.torch follows torch.get_num_threads()

    variants = ["eager softmax", "kessel softmax", "kessel fuzzy m=2", "kessel fuzzy learned",
                "eager fuzzy learned"]
    curves, summary = {}, {}
    for variant in variants:
        model, losses, step_times = train(variant, args)
        curves[variant] = losses
        eval_loss, eval_acc = evaluate(model, args.length)
        steady = sorted(step_times[10:])  # skip warm-up steps
        summary[variant] = {"loss": eval_loss, "acc": eval_acc,
                            "step_ms": 1e3 * steady[len(steady) // 2],
                            "m": [float(b.attn.m()) for b in model.blocks]}

    print(f"\nheld-out (4 x 128 sequences of {args.length} digits), after {args.steps} steps:")
    for variant, s in summary.items():
        m_text = f"  m = {', '.join(f'{m:.3f}' for m in s['m'])}" if "fuzzy" in variant else ""
        print(f"  {variant:<21} loss {s['loss']:.4f}  sequences fully sorted {100 * s['acc']:5.1f}%"
              f"  {s['step_ms']:6.1f} ms/step{m_text}")
    pairs = [("eager softmax", "kessel softmax"), ("eager fuzzy learned", "kessel fuzzy learned")]
    print(f"\nspeed, {args.threads} threads (eager ms / kessel ms; median step after warm-up):")
    for eager, kessel_variant in pairs:
        whole = summary[eager]["step_ms"] / summary[kessel_variant]["step_ms"]
        alone = attention_ms(eager, args) / attention_ms(kessel_variant, args)
        print(f"  {kessel_variant:<21} whole training step {whole:.2f}x, "
              f"attention forward + backward alone {alone:.2f}x")
    plot(curves, args.out, args)
    print(f"\nloss curves: {args.out}")


if __name__ == "__main__":
    main()
