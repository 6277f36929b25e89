"""Full-covariance Gaussian HMMs and HMM.fit from data: parity with pomegranate 0.14.8
(MultivariateGaussianDistribution states) and with an independent numpy forward-backward, Baum-Welch
against pomegranate and against a numpy M-step, the covariance floor, errors, files, and k-means /
random-restart initialisation."""
import numpy as np
import pytest

import kessel

pomegranate = pytest.importorskip("pomegranate")
from pomegranate import MultivariateGaussianDistribution  # noqa: E402
from test_hmm import check_parity, pomegranate_model, rows  # noqa: E402  (same directory)


def random_full(seed, S, D):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(S, D, D))
    covs = A @ A.transpose(0, 2, 1) + 0.3 * np.eye(D)  # correlated, well conditioned
    return rows(rng, 1, S)[0], rows(rng, S, S), rng.normal(0, 2, (S, D)), covs


def pomegranate_full(start, trans, means, covs):
    return pomegranate_model(start, trans, [MultivariateGaussianDistribution(means[s], covs[s])
                                            for s in range(len(start))])


def numpy_forward_backward(start, trans, means, covs, x):
    """Log-space forward-backward with densities from numpy's slogdet and solve: log p(x), gamma, xi sum."""
    S, D = means.shape
    log_b = np.empty((len(x), S))
    for s in range(S):
        diff = x - means[s]
        _, logdet = np.linalg.slogdet(covs[s])
        q = np.einsum("td,td->t", diff, np.linalg.solve(covs[s], diff.T).T)
        log_b[:, s] = -0.5 * (D * np.log(2 * np.pi) + logdet + q)
    T = len(x)
    la, lb = np.empty((T, S)), np.zeros((T, S))
    logA = np.log(trans)
    la[0] = np.log(start) + log_b[0]
    for t in range(1, T):
        la[t] = np.logaddexp.reduce(la[t - 1][:, None] + logA, axis=0) + log_b[t]
    for t in range(T - 2, -1, -1):
        lb[t] = np.logaddexp.reduce(logA + (log_b[t + 1] + lb[t + 1])[None, :], axis=1)
    ll = np.logaddexp.reduce(la[-1])
    gamma = np.exp(la + lb - ll)
    xi = np.zeros((S, S))
    for t in range(T - 1):
        xi += np.exp(la[t][:, None] + logA + (log_b[t + 1] + lb[t + 1])[None, :] - ll)
    return ll, gamma, xi


@pytest.mark.parametrize("seed,S,D", [(0, 3, 2), (1, 4, 3), (2, 2, 5)])
def test_full_covariance_parity_with_pomegranate_and_numpy(seed, S, D):
    start, trans, means, covs = random_full(seed, S, D)
    h = kessel.HMM.gaussian_full(start, trans, means, covs)
    seqs = h.sample(4, 40, seed=seed)
    pm, order = pomegranate_full(start, trans, means, covs)
    check_parity(h, pm, order, seqs)  # log-likelihood 1e-6 rel, Viterbi path and score, posteriors 1e-6
    for x in seqs:
        ll, gamma, _ = numpy_forward_backward(start, trans, means, covs, x)
        assert abs(h.log_likelihood(x) - ll) <= 1e-10 * abs(ll)
        assert np.abs(h.posterior(x) - gamma).max() <= 1e-10
        assert abs(np.logaddexp.reduce(h.forward(x)[-1]) - ll) <= 1e-10 * abs(ll)


def test_one_baum_welch_step_matches_numpy_and_pomegranate():
    start, trans, means, covs = random_full(3, 3, 2)
    h = kessel.HMM.gaussian_full(start, trans, means, covs)
    seqs = h.sample(4, 30, seed=5)
    # numpy M-step from numpy's E-step of the initial model
    g_all, x_all, xi, first = [], [], np.zeros((3, 3)), np.zeros(3)
    for x in seqs:
        _, gamma, xi_seq = numpy_forward_backward(start, trans, means, covs, x)
        g_all.append(gamma), x_all.append(x)
        xi += xi_seq
        first += gamma[0]
    g, X = np.concatenate(g_all), np.concatenate(x_all)
    n = g.sum(axis=0)
    mu = (g.T @ X) / n[:, None]
    cov = np.stack([((X - mu[s]) * g[:, s:s + 1]).T @ (X - mu[s]) / n[s] for s in range(3)])
    h.fit(seqs, max_iter=1, tol=0.0)
    assert np.abs(h.means - mu).max() <= 1e-10
    assert np.abs(h.covariances - cov).max() <= 1e-10
    assert np.abs(h.transitions - xi / xi.sum(axis=1, keepdims=True)).max() <= 1e-10
    assert np.abs(h.start - first / first.sum()).max() <= 1e-10
    # pomegranate's fit(max_iterations=k) runs k + 1 M-steps (its loop re-estimates before counting:
    # checked by its history's length), so it is compared with kessel's max_iter=2.
    pm, order = pomegranate_full(start, trans, means, covs)
    _, hist = pm.fit(seqs, max_iterations=1, algorithm="baum-welch", verbose=False, return_history=True)
    h2 = kessel.HMM.gaussian_full(start, trans, means, covs)
    h2.fit(seqs, max_iter=2, tol=0.0)
    emitting = [st for st in pm.states if st.distribution is not None]
    for i, st in enumerate(emitting):
        p_mu, p_cov = (np.array(v) for v in st.distribution.parameters)
        assert np.abs(p_mu - h2.means[order[i]]).max() <= 1e-9
        assert np.abs(p_cov - h2.covariances[order[i]]).max() <= 1e-9
    dense = pm.dense_transition_matrix()
    inv = np.argsort(order)
    assert np.abs(dense[:3, :3][np.ix_(inv, inv)] - h2.transitions).max() <= 1e-9


def test_diagonal_covariances_give_the_diagonal_model():
    rng = np.random.default_rng(7)
    start, trans = rows(rng, 1, 3)[0], rows(rng, 3, 3)
    means, var = rng.normal(0, 2, (3, 4)), rng.uniform(0.3, 2.0, (3, 4))
    diag = kessel.HMM.gaussian(start, trans, means, var)
    full = kessel.HMM.gaussian_full(start, trans, means, np.stack([np.diag(v) for v in var]))
    seqs = diag.sample(3, 50, seed=1)
    np.testing.assert_allclose(full.log_likelihood(seqs), diag.log_likelihood(seqs), rtol=1e-12)
    for x in seqs:
        assert np.abs(full.posterior(x) - diag.posterior(x)).max() <= 1e-12
        assert list(full.viterbi(x)[0]) == list(diag.viterbi(x)[0])
    assert np.array_equal(diag.covariances[1], np.diag(var[1]))


def test_covariance_floor_keeps_em_monotone_on_degenerate_data():
    rng = np.random.default_rng(0)
    # the third coordinate is an exact copy of the first: every sample covariance is singular
    x = rng.normal(size=(200, 2))
    X = np.column_stack([x, x[:, 0]])
    h, info = kessel.HMM.fit(X, [100, 100], n_states=2, emission="gaussian-full", variance_floor=1e-3,
                             max_iter=30, return_info=True)
    hist = info["history"]
    assert np.all(np.diff(hist) >= -1e-9 * np.abs(hist[1:]))
    assert all(np.linalg.eigvalsh(c).min() >= 1e-3 * (1 - 1e-9) for c in h.covariances)


def test_sampled_covariance_matches_the_model():
    cov = np.array([[2.0, 1.2], [1.2, 1.0]])
    h = kessel.HMM.gaussian_full([1.0], [[1.0]], [[1.0, -1.0]], [cov])
    x = h.sample(1, 20000, seed=3)[0]
    assert np.abs(np.cov(x.T) - cov).max() < 0.06
    assert np.abs(x.mean(axis=0) - [1.0, -1.0]).max() < 0.03


def test_save_load_round_trip(tmp_path):
    h = kessel.HMM.gaussian_full(*random_full(4, 3, 2))
    path = tmp_path / "full.json"
    h.save(str(path))
    g = kessel.HMM.load(str(path))
    assert g.type == "gaussian-full" and np.array_equal(g.covariances, h.covariances)
    assert g.to_json() == h.to_json()


@pytest.mark.parametrize("covs,message", [
    (np.zeros((1, 2, 2)), r"covariances\[0\] is not positive definite"),
    (np.array([[[1.0, 2.0], [2.0, 1.0]]]), r"not positive definite .*pivot 1"),
    (np.array([[[1.0, 0.5], [0.4, 1.0]]]), r"covariances\[0\] is not symmetric"),
    (np.ones((1, 3, 3)), "covariances must be"),
])
def test_bad_covariances_are_value_errors(covs, message):
    with pytest.raises(ValueError, match=message):
        kessel.HMM.gaussian_full([1.0], [[1.0]], [[0.0, 0.0]], covs)


def test_bad_covariance_in_a_file_names_the_line(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"type": "gaussian-full", "start": [1],\n "transitions": [[1]], "means": [[0, 0]],\n'
                    ' "covariances": [[[1, 0], [0, 0]]]}')
    with pytest.raises(ValueError, match=r"m\.json:3: covariances\[0\] is not positive definite"):
        kessel.HMM.load(str(path))


# ---- HMM.fit on the class --------------------------------------------------------------------------

def separated_data(emission, seed=0):
    start, trans = np.array([0.6, 0.3, 0.1]), np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.05, 0.15, 0.8]])
    means = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])
    covs = np.array([[[1.0, 0.6], [0.6, 1.0]], [[0.5, -0.2], [-0.2, 0.8]], [[1.5, 0.0], [0.0, 0.3]]])
    truth = kessel.HMM.gaussian_full(start, trans, means, covs)
    seqs = truth.sample(6, 80, seed=seed)
    return truth, seqs


@pytest.mark.parametrize("emission", ["gaussian-full", "gaussian-diag"])
def test_kmeans_fit_recovers_separated_states(emission):
    truth, seqs = separated_data(emission)
    X, lengths = np.concatenate(seqs), [len(s) for s in seqs]
    h, info = kessel.HMM.fit(X, lengths, n_states=3, emission=emission, seed=1, return_info=True)
    assert h.type == ("gaussian-full" if emission == "gaussian-full" else "gaussian")
    # each true mean has a fitted state within 0.3, and the fit is at least as likely as the truth
    for m in truth.means:
        assert np.min(np.linalg.norm(h.means - m, axis=1)) < 0.3
    if emission == "gaussian-full":
        assert h.log_likelihood(seqs).sum() >= truth.log_likelihood(seqs).sum()
    assert info["history"][-1] == pytest.approx(h.log_likelihood(seqs).sum(), rel=1e-12)
    # the same seed gives the same model; a list of sequences is the same data as X + lengths
    assert kessel.HMM.fit(seqs, n_states=3, emission=emission, seed=1).to_json() == h.to_json()


def test_restarts_keep_the_best_and_random_init_works():
    _, seqs = separated_data("gaussian-full")
    h, info = kessel.HMM.fit(seqs, n_states=3, emission="gaussian-full", init="random", n_init=4, seed=2,
                             return_info=True)
    lls = info["restart_logliks"]
    assert len(lls) == 4 and info["best_restart"] == int(np.argmax(lls))
    assert h.log_likelihood(seqs).sum() == pytest.approx(max(lls), rel=1e-12)


def test_categorical_fit_from_data():
    truth = kessel.HMM.categorical([0.5, 0.5], [[0.95, 0.05], [0.1, 0.9]],
                                   [[1 / 6] * 6, [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]])
    seqs = truth.sample(5, 300, seed=4)
    h, info = kessel.HMM.fit(seqs, n_states=2, emission="categorical", n_init=3, seed=0, return_info=True)
    assert h.type == "categorical" and h.emissions.shape == (2, 6)
    assert h.log_likelihood(seqs).sum() >= truth.log_likelihood(seqs).sum() - 1.0
    assert kessel.HMM.fit(seqs, n_states=2, emission="categorical", n_symbols=8).emissions.shape == (2, 8)


def test_instance_fit_still_refines_in_place():
    truth, seqs = separated_data("gaussian-full")
    h = kessel.HMM.gaussian_full(truth.start, truth.transitions, truth.means, truth.covariances)
    hist = h.fit(seqs, max_iter=5, tol=0.0)
    assert len(hist) == 6 and np.all(np.diff(hist) >= -1e-9)


@pytest.mark.parametrize("kwargs,message", [
    ({"emission": "poisson"}, "emission must be"),
    ({"emission": "categorical", "init": "kmeans"}, "init='kmeans' needs Gaussian"),
    ({"init": "spectral"}, "init must be"),
    ({"n_states": 0}, "n_states is 0"),
    ({"n_init": 0}, "n_init is 0"),
    ({"lengths": [10, 10]}, "lengths sum to 20 but X has 30 rows"),
    ({"n_states": 40}, "30 observations cannot initialise 40 states"),
])
def test_fit_errors(kwargs, message):
    X = np.random.default_rng(0).integers(0, 3, size=(30, 1)).astype(float)
    args = {"n_states": 2, "emission": "gaussian-full"}
    args.update(kwargs)
    lengths = args.pop("lengths", None)
    with pytest.raises(ValueError, match=message):
        kessel.HMM.fit(X, lengths, **args)
