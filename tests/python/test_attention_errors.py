"""Bad arguments to kessel's attention functions raise ValueError whose message names the argument
(and, for shape errors, the shapes involved) instead of crashing or returning NaN."""

import numpy as np
import pytest

import kessel


def qkv(B=2, H=2, Lq=5, Lk=6, D=8, Dv=None):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((B, H, Lq, D)).astype(np.float32),
            rng.standard_normal((B, H, Lk, D)).astype(np.float32),
            rng.standard_normal((B, H, Lk, Dv or D)).astype(np.float32))


def raises(match, fn=kessel.attention, *args, **kwargs):
    with pytest.raises(ValueError, match=match) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_empty_arrays():
    q, k, v = qkv()
    msg = raises(r"q .*empty", kessel.attention, q[:, :, :0], k, v)
    assert "[2, 2, 0, 8]" in msg
    raises(r"k .*empty", kessel.attention, q, k[:, :, :0], v[:, :, :0])


def test_mismatched_head_size():
    q, k, v = qkv()
    msg = raises(r"q has D=8 but k has D=4", kessel.attention, q, k[..., :4], v)
    assert "[2, 2, 6, 4]" in msg  # the shapes are named


def test_mismatched_lengths_batches_heads_and_ranks():
    q, k, v = qkv()
    raises(r"Lk", kessel.attention, q, k, v[:, :, :3])
    raises(r"batch", kessel.attention, q, k[:1], v[:1])
    raises(r"head", kessel.attention, q, k[:, :1], v[:, :1])
    raises(r"same rank", kessel.attention, q, k[0], v[0])


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_inputs(bad):
    q, k, v = qkv()
    q[1, 0, 2, 3] = bad
    raises(r"q .*non-finite", kessel.attention, q, k, v)
    q, k, v = qkv()
    v[0, 0, 0, 0] = bad
    raises(r"v .*non-finite", kessel.attention_backward, q, k, v, np.ones((2, 2, 5, 8), np.float32))


def test_nan_times():
    q, k, v = qkv(Lq=6)
    times = np.tile(np.arange(6, dtype=np.float32), (2, 1))
    times[1, 4] = np.nan
    raises(r"times", kessel.attention, q, k, v, times=times, time_decay=0.1)


def test_times_shapes():
    q, k, v = qkv()  # Lq = 5, Lk = 6
    raises(r"Lq == Lk", kessel.attention, q, k, v, times=np.zeros((2, 6)), time_decay=0.1)
    raises(r"q_times .*\[2, 4\]", kessel.attention, q, k, v,
           times=(np.zeros((2, 4)), np.zeros((2, 6))), time_decay=0.1)


@pytest.mark.parametrize("shape", [(2, 2, 5, 5), (3, 5, 6), (2, 1, 1, 1, 6), (7,)])
def test_wrong_mask_shape(shape):
    q, k, v = qkv()
    msg = raises(r"mask", kessel.attention, q, k, v, mask=np.ones(shape, dtype=bool))
    assert str(list(shape)).replace(" ", "") in msg.replace(" ", "")


def test_wrong_bias_and_aux_shapes():
    q, k, v = qkv()
    raises(r"bias .*not broadcastable", kessel.attention, q, k, v, bias=np.zeros((2, 3, 5, 6)))
    raises(r"key_boost", kessel.attention, q, k, v, key_boost=np.zeros((2, 5)))
    raises(r"allowed_keys", kessel.attention, q, k, v, allowed_keys=np.ones((6,), bool))
    raises(r"key_lengths", kessel.attention, q, k, v, key_lengths=np.array([6, 6, 6]))
    raises(r"alibi_slopes", kessel.attention, q, k, v, alibi_slopes=np.ones(3))
    raises(r"rel_bias", kessel.attention, q, k, v, rel_bias=np.ones((3, 32)))
    raises(r"rel_buckets", kessel.attention, q, k, v, rel_bias=np.ones((2, 32)), rel_buckets=16)


def test_float_mask_and_string_arrays_are_rejected():
    q, k, v = qkv()
    raises(r"mask .*dtype", kessel.attention, q, k, v, mask=np.ones((5, 6), np.float32))
    raises(r"q .*dtype", kessel.attention, np.array([["a", "b"]]), k, v)
    raises(r"key_lengths .*dtype", kessel.attention, q, k, v, key_lengths=np.array([2.5, 3.0]))


def test_unknown_keyword_lists_valid_ones():
    q, k, v = qkv()
    msg = raises(r"unknown keyword 'temprature'", kessel.attention, q, k, v, temprature=0.5)
    for valid in ("temperature", "similarity", "normalizer", "mask", "return_lse", "threads"):
        assert valid in msg
    msg = raises(r"unknown keyword 'return_lse'", kessel.attention_backward, q, k, v,
                 np.ones((2, 2, 5, 8), np.float32), return_lse=True)
    assert "out" in msg and "lse" in msg


def test_bad_keyword_values():
    q, k, v = qkv()
    raises(r"m must be a number", kessel.attention, q, k, v, normalizer="fuzzy", m="two")
    raises(r"causal must be a bool", kessel.attention, q, k, v, causal="yes")
    raises(r"window must be an integer", kessel.attention, q, k, v, window=2.5)
    raises(r"similarity", kessel.attention, q, k, v, similarity="manhattan")
    raises(r"normalizer", kessel.attention, q, k, v, normalizer="sparsemax")
    raises(r"impl", kessel.attention, q, k, v, impl="gpu")
    # 2**40 was cast to an int (0: the default thread count) without a word.
    raises(r"attention: threads=1099511627776 does not fit a 32-bit int", kessel.attention, q, k, v, threads=2**40)
    raises(r"threads=-1099511627776", kessel.attention, q, k, v, threads=-2**40)
    # The functions whose threads is a plain int argument refuse it too (pybind11's TypeError).
    with pytest.raises(TypeError, match="incompatible function arguments"):
        kessel.fcm(np.random.default_rng(0).random((20, 2)), 2, threads=2**40)


@pytest.mark.parametrize("m", [1.0, 0.5, -2.0])
def test_fuzzifier_must_exceed_one(m):
    q, k, v = qkv()
    raises(r"\bm\b", kessel.attention, q, k, v, normalizer="fuzzy", m=m)


def test_value_ranges():
    q, k, v = qkv()
    raises(r"temperature", kessel.attention, q, k, v, temperature=0.0)
    raises(r"beta", kessel.attention, q, k, v, similarity="constrained_cosine", beta=1.5)
    raises(r"key_lengths", kessel.attention, q, k, v, key_lengths=np.array([7, 2]))
    raises(r"key_lengths", kessel.attention, q, k, v, key_lengths=np.array([-1, 2]))
    raises(r"times", kessel.attention, q, k, v, time_decay=0.5)  # decay needs times


def test_chunks_need_non_negative_query_positions():
    q, k, v = qkv(Lq=7, Lk=6)  # Lq > Lk puts the first query at position -1
    raises(r"chunk_size", kessel.attention, q, k, v, chunk_size=2)


def test_int8_is_forward_only():
    q, k, v = qkv()
    raises(r"int8", kessel.attention_backward, q, k, v, np.ones((2, 2, 5, 8), np.float32),
           kv_dtype="int8")
    raises(r"kv_dtype", kessel.attention, q, k, v, kv_dtype="int4")


def test_backward_argument_shapes():
    q, k, v = qkv()
    raises(r"dout .*\[2, 2, 5, 8\]", kessel.attention_backward, q, k, v,
           np.ones((2, 2, 5, 7), np.float32))
    out, lse = kessel.attention(q, k, v, return_lse=True)
    raises(r"both out= and lse=", kessel.attention_backward, q, k, v, np.ones_like(out), out=out)
    raises(r"lse .*\[2, 2, 5\]", kessel.attention_backward, q, k, v, np.ones_like(out), out=out,
           lse=lse[:, :, :4])


@pytest.mark.parametrize("fn", [kessel.attention, kessel.attention_weights])
def test_one_dimensional_input(fn):
    x = np.ones(8, np.float32)
    msg = raises(r"rank 1", fn, x, x, x)
    assert "[L, D]" in msg


def test_quantize_rows_needs_a_matrix():
    raises(r"2-D", kessel.quantize_rows, np.ones(5, np.float32))
    raises(r"2-D", kessel.quantize_rows, np.ones((0, 5), np.float32))
    raises(r"non-finite", kessel.quantize_rows, np.array([[1.0, np.nan]], np.float32))


@pytest.mark.parametrize("spec", [{}, {"similarity": "cosine"}, {"normalizer": "fuzzy"}])
def test_finite_inputs_whose_scores_overflow(spec):
    # Finite, but q.k and |q - k|^2 exceed float32: an error, not NaN weights or silent zeros.
    q, k, v = qkv()
    raises(r"too large for float32 scores", kessel.attention, q * 1e20, k * 1e20, v, **spec)
    raises(r"too large for float32 scores", kessel.attention_weights, q * 1e20, k * 1e20, v, **spec)
    raises(r"logits can overflow", kessel.attention, q, k, v, temperature=1e-36)
