"""kessel.fcm / kessel.gk / predict / validity / `kessel cluster` against the independent numpy
implementations in fcm_numpy.py."""
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import kessel

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import fcm_numpy  # noqa: E402

SOURCE = pathlib.Path(os.environ.get("KESSEL_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
IRIS_CSV = SOURCE / "tests" / "data" / "iris.csv"
IRIS = np.loadtxt(IRIS_CSV, delimiter=",", skiprows=1, usecols=range(4))
FEATURES = "sepal_length,sepal_width,petal_length,petal_width"


def elongated(seed, n=150, angles=(20.0, 110.0), centres=((0.0, 0.0), (9.0, 3.0))):
    rng = np.random.default_rng(seed)
    parts = []
    for angle, centre in zip(angles, centres):
        a = np.deg2rad(angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        parts.append(rng.normal(size=(n, 2)) * [2.5, 0.3] @ rot.T + centre)
    return np.vstack(parts)


@pytest.mark.parametrize("m", [1.6, 2.0, 2.5])
def test_fcm_matches_numpy_from_same_centres(m):
    init = IRIS[[0, 50, 100]]
    ours = kessel.fcm(IRIS, 3, m=m, tol=1e-9, max_iter=500, init=init)
    ref = fcm_numpy.fcm(IRIS, 3, m=m, tol=1e-9, max_iter=500, init_centres=init)
    assert ours["n_iter"] == ref["n_iter"]
    assert ours["converged"] and ref["converged"]
    np.testing.assert_allclose(ours["centers"], ref["centers"], atol=1e-6)
    np.testing.assert_allclose(ours["memberships"], ref["memberships"], atol=1e-6)
    np.testing.assert_allclose(ours["objective_history"], ref["objective_history"], rtol=1e-9)
    assert ours["objective"] == ours["objective_history"][-1]


@pytest.mark.parametrize("m", [1.6, 2.0, 2.5])
def test_fcm_float32_close_to_numpy(m):
    # precision="float32": float distances and per-block sums, so ~1e-6 relative, not 1e-9.
    init = IRIS[[0, 50, 100]]
    ours = kessel.fcm(IRIS, 3, m=m, tol=0, max_iter=60, init=init, precision="float32",
                      indices=False)
    ref = fcm_numpy.fcm(IRIS, 3, m=m, tol=0, max_iter=60, init_centres=init)
    np.testing.assert_allclose(ours["centers"], ref["centers"], atol=1e-5)
    np.testing.assert_allclose(ours["memberships"], ref["memberships"], atol=1e-5)
    np.testing.assert_allclose(ours["objective_history"], ref["objective_history"], rtol=1e-5)
    np.testing.assert_allclose(ours["memberships"].sum(axis=1), 1.0, atol=1e-6)
    assert "pc" not in ours and "xb" not in ours


def test_fcm_iris_published_centres():
    r = kessel.fcm(IRIS, 3, seed=0, n_init=3, tol=1e-8)
    centres = r["centers"][np.argsort(r["centers"][:, 2])]
    published = [[5.00, 3.40, 1.48, 0.25], [5.89, 2.76, 4.36, 1.40], [6.77, 3.05, 5.65, 2.05]]
    np.testing.assert_allclose(centres, published, atol=2e-2)
    np.testing.assert_allclose(r["memberships"].sum(axis=1), 1.0, atol=1e-12)
    # Validity indices against their definitions.
    u = r["memberships"]
    assert r["pc"] == pytest.approx((u ** 2).sum() / len(u), rel=1e-12)
    assert r["pe"] == pytest.approx(-(u * np.log(u)).sum() / len(u), rel=1e-12)
    v = r["centers"]
    d2 = fcm_numpy.squared_distances(IRIS, v)
    sep = min(((v[j] - v[l]) ** 2).sum() for j in range(3) for l in range(j + 1, 3))
    assert r["xb"] == pytest.approx((u ** 2 * d2).sum() / (len(u) * sep), rel=1e-10)


def test_fcm_random_init_is_seeded_and_thread_invariant():
    x = elongated(3, n=2000)
    a = kessel.fcm(x, 4, seed=5, threads=1, max_iter=30, tol=0)
    b = kessel.fcm(x, 4, seed=5, threads=2, max_iter=30, tol=0)
    c = kessel.fcm(x, 4, seed=6, threads=2, max_iter=30, tol=0)
    np.testing.assert_array_equal(a["memberships"], b["memberships"])
    assert not np.array_equal(a["centers"], c["centers"])
    assert a["n_iter"] == 30 and not a["converged"]
    assert np.all(np.diff(a["objective_history"]) <= 1e-12 * a["objective_history"][0])


def test_fcm_random_init_matches_numpy_from_its_first_centres():
    # kessel's random start is U0; one iteration later both implementations must agree exactly when
    # numpy starts from kessel's first centres (U1 follows from V1 = centres(U0)).
    x = elongated(8)
    one = kessel.fcm(x, 2, m=2.0, seed=9, max_iter=1, tol=0)
    full = kessel.fcm(x, 2, m=2.0, seed=9, max_iter=200, tol=1e-9)
    ref = fcm_numpy.fcm(x, 2, m=2.0, tol=1e-9, max_iter=200, init_memberships=one["memberships"])
    np.testing.assert_allclose(full["centers"], ref["centers"], atol=1e-6)
    assert full["n_iter"] == ref["n_iter"] + 1


def test_restarts_keep_lowest_objective():
    singles = [kessel.fcm(IRIS, 5, seed=10 + r)["objective"] for r in range(4)]
    best = kessel.fcm(IRIS, 5, seed=10, n_init=4)
    assert best["objective"] == min(singles)
    assert best["best_restart"] == int(np.argmin(singles))


def test_predict_and_crisp_matches():
    r = kessel.fcm(IRIS, 3, init="kmeans++", seed=1)
    np.testing.assert_allclose(kessel.fcm_predict(IRIS, r["centers"]), r["memberships"], atol=1e-13)
    u = kessel.fcm_predict(r["centers"], r["centers"], m=1.7)
    np.testing.assert_array_equal(u, np.eye(3))
    twin = np.array([[1.0, 2.0], [1.0, 2.0], [4.0, 4.0]])
    np.testing.assert_array_equal(kessel.fcm_predict(np.array([[1.0, 2.0]]), twin), [[0.5, 0.5, 0.0]])


def test_gk_matches_numpy_gk_from_same_centres():
    x = elongated(21)
    init = np.array([[1.0, 1.0], [8.0, 2.0]])
    for gamma in (0.0, 0.05):
        ours = kessel.gk(x, 2, tol=1e-9, max_iter=300, init=init, gamma=gamma, rho=[1.0, 2.0])
        ref = fcm_numpy.gk(x, 2, tol=1e-9, max_iter=300, init_centres=init, gamma=gamma,
                           rho=[1.0, 2.0])
        assert ours["n_iter"] == ref["n_iter"]
        np.testing.assert_allclose(ours["centers"], ref["centers"], atol=1e-6)
        np.testing.assert_allclose(ours["memberships"], ref["memberships"], atol=1e-6)
        np.testing.assert_allclose(ours["covariances"], ref["covariances"], atol=1e-6)
        np.testing.assert_allclose(ours["norm_matrices"], ref["norm_matrices"], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(np.linalg.det(ours["norm_matrices"]), [1.0, 2.0], rtol=1e-9)
        np.testing.assert_allclose(
            kessel.gk_predict(x, ours["centers"], ours["norm_matrices"]), ours["memberships"],
            atol=1e-12)


def test_gk_recovers_orientation_and_stays_finite_on_a_line():
    x = elongated(4, n=300)
    r = kessel.gk(x, 2, init="kmeans++", seed=2, tol=1e-8)
    for cov in r["covariances"]:
        vals, vecs = np.linalg.eigh(cov)
        angle = np.rad2deg(np.arctan2(vecs[1, -1], vecs[0, -1])) % 180
        assert min(abs(angle - 20), abs(angle - 110)) < 3
    t = np.linspace(-1, 1, 40)
    line = np.c_[t, 3 * t]
    blob = np.random.default_rng(0).normal(size=(40, 2)) + 15
    r = kessel.gk(np.vstack([line, blob]), 2, gamma=0.0, init=np.array([[0.0, 0.0], [15, 15]]))
    for key in ("centers", "memberships", "covariances", "norm_matrices"):
        assert np.isfinite(r[key]).all(), key


GK3 = kessel.gk(IRIS, 3, seed=0)  # for the gk_predict case below


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: kessel.fcm(IRIS, 151), "exceeds the 150 points"),
        (lambda: kessel.fcm(IRIS, 0), "clusters must be >= 1"),
        (lambda: kessel.fcm(IRIS, 3, m=1.0), "fuzzifier m must be finite and > 1"),
        (lambda: kessel.fcm(IRIS, 3, init="nope"), "init must be 'random', 'kmeans++'"),
        (lambda: kessel.fcm(IRIS, 3, init=IRIS[:2]), "init centres have 2 rows"),
        (lambda: kessel.fcm(np.array([[1.0, np.nan], [2, 3]]), 1), "is not finite"),
        (lambda: kessel.fcm(IRIS[:, 0], 2), "X must be 2-D"),
        (lambda: kessel.gk(IRIS, 3, gamma=2.0), "gamma must be in [0, 1]"),
        (lambda: kessel.gk(IRIS, 3, rho=[1.0]), "volumes has 1 entries"),
        (lambda: kessel.fcm_predict(IRIS, IRIS[:2, :3]), "but centres have D=3"),
        (lambda: kessel.fcm(IRIS, 3, precision="half"), "precision must be 'float64' or 'float32'"),
        (lambda: kessel.fcm(np.array([[1.0, np.nan], [2, 3]]), 1, precision="float32"),
         "is not finite or beyond"),
        # u^m underflows for every point: the centres came back at the origin, "converged".
        (lambda: kessel.fcm(IRIS + 10, 2, m=1e6), "fuzzifier m = 1e+06 is too large for 2 clusters"),
        (lambda: kessel.gk(IRIS, 3, m=1e4), "fuzzifier m = 10000 is too large for 3 clusters"),
        (lambda: kessel.fcm(IRIS, 3, m=100, precision="float32"), "underflows float32 precision"),
        # A norm matrix that is not positive definite is no distance (memberships came back 1/C).
        (lambda: kessel.gk_predict(IRIS, GK3["centers"], -GK3["norm_matrices"]),
         "norm_matrices[0] is not positive definite"),
    ],
)
def test_bad_arguments_raise_value_error(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# ---- CLI --------------------------------------------------------------------------------------------

def cli(*args):
    exe = os.environ.get("KESSEL_CLI")
    if not exe or not pathlib.Path(exe).exists():
        pytest.skip("KESSEL_CLI not set to a built kessel binary")
    return subprocess.run([exe, "cluster", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_cli_text_and_json_agree_with_module():
    out = cli("--method", "fcm", "-k", 3, "-m", 2, "--seed", 4, IRIS_CSV, "--columns", FEATURES)
    assert out.returncode == 0, out.stderr
    assert "objective" in out.stdout and "PC" in out.stdout and "XB" in out.stdout
    js = cli("--method", "fcm", "-k", 3, "--seed", 4, IRIS_CSV, "--columns", FEATURES, "--json")
    assert js.returncode == 0, js.stderr
    doc = json.loads(js.stdout)
    ref = kessel.fcm(IRIS, 3, seed=4)
    np.testing.assert_allclose(doc["centers"], ref["centers"], rtol=1e-14)
    np.testing.assert_allclose(doc["memberships"], ref["memberships"], rtol=1e-14)
    assert doc["iterations"] == ref["n_iter"] and doc["pc"] == pytest.approx(ref["pc"])
    gk = json.loads(cli("--method", "gk", "-k", 2, IRIS_CSV, "--columns", "0,1,2,3", "--json").stdout)
    assert np.array(gk["covariances"]).shape == (2, 4, 4)


def test_cli_columns_do_not_swallow_the_data_path():
    # "--columns 0,1,2,3 data.csv --json" used to read data.csv as a column name ("data is required").
    first = cli("-k", 3, "--seed", 4, "--columns", "0,1,2,3", IRIS_CSV, "--json")
    last = cli("-k", 3, "--seed", 4, IRIS_CSV, "--columns", "0,1,2,3", "--json")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["centers"] == json.loads(last.stdout)["centers"]


def test_cli_reads_headerless_csv(tmp_path):
    path = tmp_path / "plain.csv"
    np.savetxt(path, IRIS, delimiter=",", fmt="%.1f")
    doc = json.loads(cli("-k", 3, "--seed", 4, path, "--json").stdout)
    np.testing.assert_allclose(doc["centers"], kessel.fcm(IRIS, 3, seed=4)["centers"], rtol=1e-14)


@pytest.mark.parametrize(
    "content, args, message",
    [
        ("a,b\n1,2\n3\n", ["-k", 1], ":3: ragged row: 1 fields, expected 2"),
        ("1,2\n3,x\n", ["-k", 1], ":2: column '1': 'x' is not a number"),
        ("1,2\nNaN,4\n", ["-k", 1], ":2: column '0': 'NaN' is not finite"),
        ("", ["-k", 1], "empty file"),
        ("1,2\n3,4\n", ["-k", 3], "-k 3 exceeds the 2 data rows"),
        ("1,2\n3,4\n", ["-k", 0], "-k must be >= 1, got 0"),
        ("1,2\n3,4\n", ["-k", 1, "-m", 1], "-m must be > 1, got 1"),
        ("a,b\n1,2\n3,0x10\n", ["-k", 1], ":3: column 'b': '0x10' is not a number"),
        ("a,b\n1,2\n3,1e200\n", ["-k", 1], ":3: column 'b': '1e200' is beyond ±1e150"),
        ("a,b\n1,2\n3,1e400\n", ["-k", 1], ":3: column 'b': '1e400' is out of range"),
        ("a,b\n1,2\n3,4\n", ["-k", 1, "--columns", "0,a"], "column 'a' of"),
        ("a,b\n1,2\n3,4\n", ["-k", 1, "--threads", "-3"], "--threads"),
    ],
)
def test_cli_errors_name_file_and_line(tmp_path, content, args, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    out = cli(path, *args)
    assert out.returncode != 0
    assert message in out.stderr
    if ":" in message[:3]:
        assert str(path) in out.stderr


def test_cli_missing_file():
    out = cli("/nonexistent/data.csv", "-k", 2)
    assert out.returncode != 0 and "cannot open" in out.stderr
