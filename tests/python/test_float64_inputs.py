"""float64 inputs to the float32 kernels: converted, with one kessel.PrecisionWarning per process.

Each case runs in a fresh interpreter, since the warning is shown once per process."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import kessel


def run(code):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    script = "import warnings, numpy as np, kessel\nwarnings.simplefilter('always')\n" + textwrap.dedent(code)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_float64_attention_warns_once_and_matches_float32():
    out = run("""
        rng = np.random.default_rng(0)
        q, k, v = (rng.normal(size=(7, 5)) for _ in range(3))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            a = kessel.attention(q, k, v)
            b = kessel.attention(q, k, v)                     # second call: no second warning
            c = kessel.layer_norm(q, np.ones(5), np.zeros(5))  # another function: still once
        ref = kessel.attention(*(t.astype(np.float32) for t in (q, k, v)))
        print(len(caught), caught[0].category is kessel.PrecisionWarning, issubclass(kessel.PrecisionWarning, UserWarning))
        print(a.dtype, bool(np.array_equal(a, ref)), bool(np.array_equal(a, b)))
        print(str(caught[0].message))
        print(caught[0].filename.endswith('<string>'))
    """).splitlines()
    assert out[0] == "1 True True"
    assert out[1] == "float32 True True"  # the float64 input gives exactly the float32 result
    assert "a float64 array was converted to float32" in out[2] and "once per process" in out[2]
    assert out[3] == "True"  # the warning points at the caller's line, not into kessel


def test_float64_layer_argument_warns_through_the_caster():
    out = run("""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            kessel.layer_norm(np.ones((2, 3)), np.ones(3, dtype=np.float32), np.zeros(3, dtype=np.float32))
        print(len(caught), caught[0].category.__name__)
    """)
    assert out == "1 PrecisionWarning"


def test_float32_and_integer_inputs_do_not_warn_and_float64_clustering_does_not_either():
    out = run("""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            x = np.arange(20, dtype=np.float32).reshape(4, 5)
            kessel.attention(x, x, x)
            kessel.attention(np.arange(20).reshape(4, 5), x, x)   # int64: exact below 2^24, documented
            kessel.fcm(np.random.default_rng(1).normal(size=(30, 2)), 2)  # float64 is native there
        print(len(caught))
    """)
    assert out == "0"


def test_a_filter_can_turn_the_warning_into_an_error():
    out = run("""
        warnings.simplefilter('error', kessel.PrecisionWarning)
        try:
            kessel.attention(np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3)))
            print('no error')
        except kessel.PrecisionWarning as e:
            print('raised')
    """)
    assert out == "raised"


def test_the_docstrings_say_so():
    assert "float64" in kessel.__doc__ and "PrecisionWarning" in kessel.__doc__
    assert "PrecisionWarning" in kessel.attention.__doc__
