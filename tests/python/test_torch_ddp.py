"""kessel.torch.attention under torch.distributed: two gloo processes on localhost, each with half
of a global batch in DistributedDataParallel, end with the gradients one process computes on the
whole batch (every parameter, the learnable fuzzifier m included), to float tolerance."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("kessel")
if not torch.distributed.is_available() or not torch.distributed.is_gloo_available():
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

WORKER = Path(__file__).with_name("ddp_worker.py")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(out, world):
    env = dict(os.environ, WORLD_SIZE=str(world), PORT=str(free_port()), OUT=str(out))
    procs = [subprocess.Popen([sys.executable, str(WORKER)], env=dict(env, RANK=str(r)),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for r in range(max(world, 1))]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()


def test_ddp_gradients_equal_one_process_on_the_global_batch(tmp_path):
    run_ranks(tmp_path, 0)
    run_ranks(tmp_path, 2)
    single = torch.load(tmp_path / "rank0-world0.pt")
    ranks = [torch.load(tmp_path / f"rank{r}-world2.pt") for r in (0, 1)]
    for normalizer in ("softmax", "fuzzy"):
        names = set(single[normalizer])
        assert {"qkv.weight", "qkv.bias", "out.weight", "out.bias"} <= names
        assert ("m" in names) == (normalizer == "fuzzy")
        for grads in ranks:
            assert set(grads[normalizer]) == names
            for name in names:
                torch.testing.assert_close(grads[normalizer][name], single[normalizer][name],
                                           rtol=1e-5, atol=1e-6, msg=f"{normalizer} {name}")
        assert single["fuzzy"]["m"].abs() > 0  # m is learned: its gradient is not zero
