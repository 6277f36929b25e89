"""The SIMD variant as Python and the CLI see it: listing, forcing, errors for bad names, and the same
attention results (within the documented cross-variant tolerance) on every variant."""
import os
import subprocess
import sys

import numpy as np
import pytest

import kessel

CLI = os.environ.get("KESSEL_CLI", "kessel")


@pytest.fixture(autouse=True)
def restore_variant():
    yield
    kessel.set_cpu_variant("auto")


def test_variants_are_listed_best_first_with_scalar_last():
    available = kessel.cpu_variants()
    assert available[-1] == "scalar"
    assert kessel.cpu_variant() == available[0]
    assert set(available) <= set(kessel.cpu_variants_built())


def test_every_variant_can_be_forced_and_gives_the_reference_result():
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((1, 2, 77, 24)).astype(np.float32) for _ in range(3))
    kessel.set_cpu_variant("scalar")
    want = kessel.attention(q, k, v, causal=True)
    for name in kessel.cpu_variants():
        kessel.set_cpu_variant(name)
        assert kessel.cpu_variant() == name
        got = kessel.attention(q, k, v, causal=True)
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-6, err_msg=name)
    kessel.set_cpu_variant("auto")
    assert kessel.cpu_variant() == kessel.cpu_variants()[0]


def test_an_unknown_or_unbuilt_variant_is_a_value_error_naming_the_choices():
    with pytest.raises(ValueError, match=r"'avx9000' is not a variant; available here: .*scalar"):
        kessel.set_cpu_variant("avx9000")
    missing = [n for n in ("neon", "avx2") if n not in kessel.cpu_variants_built()]
    if missing:
        with pytest.raises(ValueError, match="not in this build"):
            kessel.set_cpu_variant(missing[0])
    assert kessel.cpu_variant() == kessel.cpu_variants()[0]  # a refused name changes nothing


def test_kessel_cpu_environment_variable_forces_and_refuses():
    env = dict(os.environ, KESSEL_CPU="scalar")
    p = subprocess.run([CLI, "--version"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "SIMD variant: scalar" in p.stdout
    env["KESSEL_CPU"] = "bogus"
    p = subprocess.run([CLI, "--version"], capture_output=True, text=True, env=env)
    assert p.returncode == 3  # a runtime error, not a usage error: the command line is fine
    assert "KESSEL_CPU='bogus' is not a variant; available here:" in p.stderr
    # kessel.InvalidArgument is a ValueError (module.cc)
    code = "import kessel, numpy as np; x = np.ones((1, 1, 4, 4), np.float32); kessel.attention(x, x, x)"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert p.returncode != 0 and "kessel.InvalidArgument" in p.stderr and "KESSEL_CPU='bogus'" in p.stderr
