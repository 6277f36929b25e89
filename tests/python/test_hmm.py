"""kessel.HMM: parity with pomegranate 0.14.8, the Python API, and the `kessel hmm` CLI."""
import json
import os
import subprocess

import numpy as np
import pytest

import kessel

pomegranate = pytest.importorskip("pomegranate")
from pomegranate import (  # noqa: E402
    DiscreteDistribution,
    HiddenMarkovModel,
    IndependentComponentsDistribution,
    NormalDistribution,
)

DATA = os.path.join(os.environ.get("KESSEL_SOURCE_DIR", "."), "tests", "data", "hmm")


def rows(rng, r, c):
    m = rng.uniform(0.05, 1.0, (r, c))
    return m / m.sum(axis=1, keepdims=True)


def random_categorical(seed, S, K):
    rng = np.random.default_rng(seed)
    return rows(rng, 1, S)[0], rows(rng, S, S), rows(rng, S, K)


def random_gaussian(seed, S, D):
    rng = np.random.default_rng(seed)
    return (rows(rng, 1, S)[0], rows(rng, S, S), rng.normal(0, 2, (S, D)),
            rng.uniform(0.3, 2.0, (S, D)))


def pomegranate_model(start, trans, dists):
    # ends=None: pomegranate adds silent start/end states but connects nothing to the end state, so
    # log_probability sums alpha over the last step exactly like kessel (checked below).
    pm = HiddenMarkovModel.from_matrix(trans, dists, start, ends=None)
    dense = pm.dense_transition_matrix()
    end = [i for i, s in enumerate(pm.states) if s is pm.end][0]
    assert dense[:, end].max() == 0.0, "no edge may enter pomegranate's end state"
    # pomegranate sorts states by name ("s10" < "s2"): map its order to kessel's state indices.
    order = [int(s.name[1:]) for s in pm.states if s.distribution is not None]
    return pm, order


def pomegranate_categorical(start, trans, emis):
    K = emis.shape[1]
    dists = [DiscreteDistribution({k: float(emis[s, k]) for k in range(K)})
             for s in range(len(start))]
    return pomegranate_model(start, trans, dists)


def pomegranate_gaussian(start, trans, means, variances):
    S, D = means.shape
    dists = [IndependentComponentsDistribution(
        [NormalDistribution(float(means[s, d]), float(np.sqrt(variances[s, d]))) for d in range(D)])
        for s in range(S)]
    return pomegranate_model(start, trans, dists)


def check_parity(h, pm, order, seqs):
    S = h.n_states
    for x in seqs:
        xp = list(x) if x.ndim == 1 else x
        ll_pg, ll_k = pm.log_probability(xp), h.log_likelihood(x)
        assert abs(ll_k - ll_pg) <= 1e-6 * abs(ll_pg)
        score_pg, path_pg = pm.viterbi(xp)
        path_k, score_k = h.viterbi(x)
        emitting = [order[i] for i, _ in path_pg if i < S]  # drop the silent start state
        assert emitting == list(path_k)
        assert abs(score_k - score_pg) <= 1e-6 * abs(score_pg)
        post = h.posterior(x)
        assert np.abs(post[:, order] - pm.predict_proba(xp)).max() <= 1e-6


@pytest.mark.parametrize("seed,S,K", [(0, 3, 4), (1, 12, 6)])
def test_categorical_parity_with_pomegranate(seed, S, K):
    start, trans, emis = random_categorical(seed, S, K)
    h = kessel.HMM.categorical(start, trans, emis)
    pm, order = pomegranate_categorical(start, trans, emis)
    check_parity(h, pm, order, h.sample(4, 60, seed))


@pytest.mark.parametrize("seed,S,D", [(2, 4, 1), (3, 11, 3)])
def test_gaussian_parity_with_pomegranate(seed, S, D):
    start, trans, means, variances = random_gaussian(seed, S, D)
    h = kessel.HMM.gaussian(start, trans, means, variances)
    pm, order = pomegranate_gaussian(start, trans, means, variances)
    check_parity(h, pm, order, h.sample(3, 50, seed))


def test_pomegranate_end_probabilities_would_change_the_likelihood():
    # The reason for ends=None: explicit end transitions multiply in p(end | last state).
    start, trans, emis = random_categorical(5, 3, 4)
    h = kessel.HMM.categorical(start, trans, emis)
    x = list(h.sample(1, 20, 5)[0])
    dists = [DiscreteDistribution({k: float(emis[s, k]) for k in range(4)}) for s in range(3)]
    with_ends = HiddenMarkovModel.from_matrix(trans, dists, start, ends=[0.1, 0.1, 0.1])
    assert abs(with_ends.log_probability(x) - h.log_likelihood(x)) > 1e-3


def casino():
    f = 1 / 6
    return kessel.HMM.categorical([0.5, 0.5], [[0.95, 0.05], [0.1, 0.9]],
                                  [[f] * 6, [0.1] * 5 + [0.5]])


def test_forward_backward_posterior_are_consistent():
    h = casino()
    x = h.sample(1, 200, 11)[0]
    la, lb = h.forward(x), h.backward(x)
    assert la.shape == (200, 2) and lb.shape == (200, 2)
    ll = h.log_likelihood(x)
    assert np.logaddexp.reduce(la[-1]) == pytest.approx(ll, rel=1e-12)
    post = h.posterior(x)
    np.testing.assert_allclose(post, np.exp(la + lb - ll), atol=1e-10)
    np.testing.assert_allclose(post.sum(axis=1), 1.0, atol=1e-12)


def test_batches_and_threads():
    start, trans, means, variances = random_gaussian(7, 5, 2)
    h = kessel.HMM.gaussian(start, trans, means, variances)
    seqs = [h.sample(1, n, n)[0] for n in (1, 7, 30, 129)]
    ll = h.log_likelihood(seqs)
    assert ll.shape == (4,)
    for x, v in zip(seqs, ll):
        assert h.log_likelihood(x) == v
    np.testing.assert_array_equal(h.log_likelihood(seqs, threads=2), ll)
    posts = h.posterior(seqs)
    assert [p.shape for p in posts] == [(n, 5) for n in (1, 7, 30, 129)]
    paths = h.viterbi(seqs, threads=2)
    assert len(paths) == 4 and len(paths[3][0]) == 129


def test_fit_history_fix_and_properties():
    truth = casino()
    seqs = truth.sample(10, 300, 3)
    h = kessel.HMM.categorical([0.5, 0.5], [[0.8, 0.2], [0.2, 0.8]],
                               [[0.2] * 4 + [0.1] * 2, [0.1] * 4 + [0.2, 0.4]])
    before = h.emissions.copy()
    hist = h.fit(seqs, max_iter=30, tol=0.0, fix=("emissions",))
    assert len(hist) == 31
    assert np.all(np.diff(hist) >= -1e-9 * np.abs(hist[:-1]))
    np.testing.assert_array_equal(h.emissions, before)
    assert h.log_likelihood(seqs).sum() == pytest.approx(hist[-1], rel=1e-12)
    hist = h.fit(seqs, max_iter=200, tol=1e-6)
    assert hist[-1] - hist[-2] < 1e-6
    assert h.emissions[1, 5] == pytest.approx(0.5, abs=0.08)
    assert h.start.shape == (2,) and h.transitions.shape == (2, 2)
    with pytest.raises(ValueError):
        h.means
    g = kessel.HMM.gaussian([1.0], [[1.0]], [[0.0, 1.0]], [[1.0, 2.0]])
    assert g.means.shape == (1, 2) and g.variances.shape == (1, 2)


def test_sample_is_seeded():
    h = casino()
    a, b, c = h.sample(2, 50, 9), h.sample(2, 50, 9), h.sample(2, 50, 10)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])
    seqs, states = h.sample(1, 300, 1998, return_states=True)
    path, _ = h.viterbi(seqs[0])
    assert (path == states[0]).mean() > 0.8


@pytest.mark.parametrize("call,match", [
    (lambda: kessel.HMM.categorical([0.5, 0.6], [[1, 0], [0, 1]], [[1], [1]]), "start sums to 1.1"),
    (lambda: kessel.HMM.categorical([0.5, 0.5], [[1, 0], [0.5, 0.4]], [[1], [1]]),
     "transitions row 1 sums to 0.9"),
    (lambda: kessel.HMM.gaussian([1.0], [[1.0]], [[0.0]], [[0.0]]), r"variances\[0\]\[0\] is 0"),
    (lambda: kessel.HMM.gaussian([1.0], [[1.0]], [[0.0]], [[-1.0]]), r"variances\[0\]\[0\] is -1"),
    (lambda: kessel.HMM.gaussian([1.0], [[1.0]], [[np.nan]], [[1.0]]), "must be finite"),
    (lambda: kessel.HMM.categorical([1.0], [[1.0]], [[1.0]]).log_likelihood([0, 1]),
     r"symbol 1 \(must be an integer in \[0, 1\)\)"),
    (lambda: kessel.HMM.categorical([1.0], [[1.0]], [[1.0]]).log_likelihood([0.5]), "symbol 0.5"),
    (lambda: kessel.HMM.categorical([1.0], [[1.0]], [[1.0]]).log_likelihood(np.array([], dtype=int)), "is empty"),
    (lambda: kessel.HMM.gaussian([1.0], [[1.0]], [[0.0, 0.0]], [[1.0, 1.0]]).viterbi(np.ones((3, 3))),
     r"\[T, D=2\]"),
    (lambda: kessel.HMM.gaussian([1.0], [[1.0]], [[0.0]], [[1.0]]).posterior([[0.0], [np.inf]]),
     "must be finite"),
    (lambda: casino().fit([[0, 1]], fix=("bogus",)), "fix has 'bogus'"),
    (lambda: casino().fit([[0, 1]], max_iter=-1), "max_iter is -1"),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ---- the CLI ---------------------------------------------------------------------------------------
CLI = os.environ.get("KESSEL_CLI")
needs_cli = pytest.mark.skipif(not CLI or not os.path.exists(CLI), reason="KESSEL_CLI not set")


def run_cli(*args):
    return subprocess.run([CLI, "hmm", *args], capture_output=True, text=True, timeout=120)


def read_gaussian_lines(path):
    seqs = []
    for line in open(path):
        if line.strip() and not line.lstrip().startswith("#"):
            seqs.append(np.array([[float(v) for v in step.replace(",", " ").split()]
                                  for step in line.split(";") if step.strip()]))
    return seqs


@needs_cli
def test_cli_matches_the_python_module():
    model, data = os.path.join(DATA, "gaussian2.json"), os.path.join(DATA, "gaussian2_obs.txt")
    h = kessel.HMM.load(model)
    seqs = read_gaussian_lines(data)
    r = run_cli("loglik", "--model", model, "--data", data, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    np.testing.assert_allclose(out["log_likelihood"], h.log_likelihood(seqs), rtol=1e-12)
    r = run_cli("viterbi", "--model", model, "--data", data, "--json")
    for got, x in zip(json.loads(r.stdout)["viterbi"], seqs):
        path, score = h.viterbi(x)
        assert got["path"] == list(path) and got["log_score"] == pytest.approx(score, rel=1e-12)
    r = run_cli("posterior", "--model", model, "--data", data, "--json")
    for got, x in zip(json.loads(r.stdout)["posterior"], seqs):
        np.testing.assert_allclose(got, h.posterior(x), atol=1e-12)


@needs_cli
def test_cli_fit_writes_model_and_logs_progress(tmp_path):
    model, data = os.path.join(DATA, "casino.json"), os.path.join(DATA, "casino_rolls.txt")
    out = tmp_path / "fitted.json"
    r = run_cli("fit", "--model", model, "--data", data, "--out", str(out), "--max-iter", "7",
                "--tol", "0", "--json")
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stderr.splitlines() if l.startswith("iter ")]
    assert len(lines) == 8 and lines[3].startswith("iter 3 | loglik ") and "| Δ " in lines[3]
    result = json.loads(r.stdout)
    assert len(result["history"]) == 8 and result["iterations"] == 7
    h = kessel.HMM.categorical([0.5, 0.5], [[0.95, 0.05], [0.1, 0.9]],
                               [[1 / 6] * 6, [0.1] * 5 + [0.5]])
    rolls = [np.array(l.split(), dtype=int) for l in open(data)
             if l.strip() and not l.startswith("#")]
    np.testing.assert_allclose(h.fit(rolls, max_iter=7, tol=0.0), result["history"], rtol=1e-12)
    fitted = kessel.HMM.load(str(out))
    # The CLI may be another build than the module (CI's sanitizer stage runs clang -O1's CLI against
    # GCC -O3's module), whose sums can differ in the last bit (2.8e-17 on AMD EPYC, AVX2): the same
    # model to within rounding, as the history above.
    np.testing.assert_allclose(fitted.transitions, h.transitions, rtol=1e-12, atol=0)
    np.testing.assert_allclose(fitted.emissions, h.emissions, rtol=1e-12, atol=0)


@needs_cli
@pytest.mark.parametrize("model_text,data_text,message", [
    ('{"type": "categorical", "start": [0.5, 0.4],\n "transitions": [[1, 0], [0, 1]],\n'
     ' "emissions": [[1], [1]]}', "0\n", "m.json:1: start sums to 0.9 (must be 1 within 1e-06)"),
    ('{"type": "gaussian", "start": [1],\n "transitions": [[1]],\n "means": [[0]],\n'
     ' "variances": [[0]]}', "0\n", "m.json:4: variances[0][0] is 0 (must be finite and > 0)"),
    ('{"type": "categorical", "start": [1], "transitions": [[1]], "emissions": [[0.5, 0.5]]}',
     "0 1\n# comment\n0 2 1\n", "x.txt:3: step 1: symbol 2 is outside [0, 2)"),
    ('{"type": "gaussian", "start": [1], "transitions": [[1]], "means": [[0, 0]],'
     ' "variances": [[1, 1]]}', "0 0; 1 1\n0 0; 1\n", "x.txt:2: step 1 has 1 values but the model has D=2"),
    ('{"type": "gaussian", "start": [1], "transitions": [[1]], "means": [[0]], "variances": [[1]]}',
     "0; nan\n", "x.txt:1: step 1: value 'nan' is not finite (NaN/inf)"),
    ('{"type": "gaussian", "start": [1], "transitions": [[1]], "means": [[0]], "variances": [[1]]}',
     "", "x.txt:1: no sequences (the file is empty or has only blank/comment lines)"),
    # Unknown keys are refused: a typo, or a key of the other emission type.
    ('{"type": "categorical", "start": [1], "transitions": [[1]],\n "transitons": [[1]], "emissions": [[1]]}',
     "0\n", 'm.json:2: unknown key "transitons" in a categorical model (expected type, start, transitions, emissions)'),
    ('{"type": "categorical", "start": [1], "transitions": [[1]], "emissions": [[1]], "means": [[0]]}',
     "0\n", 'm.json:1: unknown key "means" in a categorical model (expected type, start, transitions, emissions)'),
    # A repeated key is refused at the line of its second occurrence (the one JSON would keep).
    ('{"type": "categorical", "start": [1], "transitions": [[1]],\n "emissions": [[1]],\n "start": [0]}',
     "0\n", 'm.json:3: duplicate key "start"'),
])
def test_cli_errors_name_file_and_line(tmp_path, model_text, data_text, message):
    (tmp_path / "m.json").write_text(model_text)
    (tmp_path / "x.txt").write_text(data_text)
    r = subprocess.run([CLI, "hmm", "loglik", "--model", "m.json", "--data", "x.txt"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 3  # an input error (README: Exit codes)
    assert r.stderr.strip() == "kessel: error: " + message


@needs_cli
def test_cli_missing_file():
    r = run_cli("viterbi", "--model", "/nonexistent/model.json", "--data", "x.txt")
    assert r.returncode == 3 and "cannot open model file '/nonexistent/model.json'" in r.stderr
