"""One rank of tests/python/test_torch_ddp.py: a small attention block on kessel.torch.attention,
wrapped in DistributedDataParallel (gloo), one backward over this rank's half of the global batch;
writes the averaged gradients to OUT/rank<R>.pt. Run with RANK, WORLD_SIZE, PORT, OUT set; with
WORLD_SIZE=0 it is the single-process reference over the whole batch."""
import os

import torch
import torch.distributed as dist

import kessel.torch

D, H, L, B = 8, 2, 7, 4  # odd length; the global batch splits evenly over two ranks


class Block(torch.nn.Module):
    def __init__(self, normalizer):
        super().__init__()
        self.qkv = torch.nn.Linear(D, 3 * D)
        self.out = torch.nn.Linear(D, D)
        self.normalizer = normalizer
        if normalizer == "fuzzy":  # the fuzzifier, learned (DDP wants every parameter used)
            self.m = torch.nn.Parameter(torch.tensor(1.7))

    def forward(self, x):
        b = x.shape[0]
        q, k, v = self.qkv(x).view(b, L, 3, H, D // H).permute(2, 0, 3, 1, 4)
        spec = {"causal": True}
        if self.normalizer == "fuzzy":
            spec.update(normalizer="fuzzy", m=self.m)
        o = kessel.torch.attention(q.contiguous(), k.contiguous(), v.contiguous(), **spec)
        return self.out(o.transpose(1, 2).reshape(b, L, D))


def gradients(normalizer, rank, world):
    torch.manual_seed(0)
    model = Block(normalizer)
    x = torch.randn(B, L, D)
    target = torch.randn(B, L, D)
    if world:
        model = torch.nn.parallel.DistributedDataParallel(model)
        part = slice(rank * B // world, (rank + 1) * B // world)
        x, target = x[part], target[part]
    loss = ((model(x) - target) ** 2).mean()
    loss.backward()
    module = model.module if world else model
    return {name: p.grad.clone() for name, p in module.named_parameters() if p.grad is not None}


def main():
    torch.set_num_threads(1)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    if world:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{os.environ['PORT']}",
                                rank=rank, world_size=world)
    grads = {n: gradients(n, rank, world) for n in ("softmax", "fuzzy")}
    torch.save(grads, os.path.join(os.environ["OUT"], f"rank{rank}-world{world}.pt"))
    if world:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
