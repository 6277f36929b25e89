"""Independent, vectorized numpy fuzzy c-means (scikit-fuzzy's formulation) and Gustafson–Kessel.

Written from the equations, not from kessel's C++: memberships from *squared* distances with the
exponent 1/(m-1), i.e. scikit-fuzzy's d ** (-2/(m-1)) on plain distances, normalised per point.
Iteration t: V_t from U_{t-1}, U_t from V_t, J_t = sum U_t^m d2(V_t); iteration t is the last when
max|V_t - V_{t-1}| < tol * sigma (sigma = RMS feature standard deviation) or t = max_iter.
Used by tests/python/test_cluster.py (parity) and bench/cluster_bench.py (baseline).
"""
import numpy as np


def squared_distances(x, v):
    """[N, C] squared Euclidean distances by broadcasting (no GEMM identity)."""
    diff = x[:, None, :] - v[None, :, :]
    return np.einsum("ncd,ncd->nc", diff, diff)


def squared_distances_gemm(x, v):
    """Same as squared_distances through one GEMM, ||x||^2 + ||v||^2 - 2 x.v clamped at 0: the fastest
    numpy formulation (uses OpenBLAS threads), the benchmark's baseline."""
    d2 = np.einsum("nd,nd->n", x, x)[:, None] + np.einsum("cd,cd->c", v, v)[None, :] - 2.0 * (x @ v.T)
    return np.maximum(d2, 0.0, out=d2)


def memberships(d2, m):
    """u_ij = 1 / sum_l (d2_ij / d2_il)^(1/(m-1)); exact matches share membership crisply."""
    zero = d2 == 0.0
    with np.errstate(divide="ignore"):
        w = np.where(zero, 0.0, d2) ** (-1.0 / (m - 1.0))
    w[zero] = 0.0
    u = w / w.sum(axis=1, keepdims=True)
    crisp = zero.any(axis=1)
    if crisp.any():
        u[crisp] = zero[crisp] / zero[crisp].sum(axis=1, keepdims=True)
    return u


def spread_of(x):
    """RMS feature standard deviation: makes tol unit-free (1 for constant data)."""
    s = float(np.sqrt(x.var(axis=0).mean()))
    return s if s > 0 else 1.0


def centres_from(x, u, m):
    um = u ** m
    return (um.T @ x) / um.sum(axis=0)[:, None]


def fcm(x, c, m=2.0, tol=1e-6, max_iter=300, init_centres=None, init_memberships=None,
        distance=squared_distances):
    """Returns dict(centers, memberships, objective_history, n_iter, converged)."""
    x = np.asarray(x, dtype=np.float64)
    spread = spread_of(x)
    v_prev = None
    if init_memberships is not None:
        u = np.asarray(init_memberships, dtype=np.float64)
    else:
        v_prev = np.asarray(init_centres, dtype=np.float64)
        u = memberships(distance(x, v_prev), m)
    history, converged, it = [], False, 0
    for it in range(1, max_iter + 1):
        v = centres_from(x, u, m)
        converged = v_prev is not None and np.abs(v - v_prev).max() < tol * spread
        v_prev = v
        d2 = distance(x, v)
        u = memberships(d2, m)
        history.append(float(((u ** m) * d2).sum()))
        if converged:
            break
    return dict(centers=v, memberships=u, objective_history=history, n_iter=it, converged=converged)


def gk(x, c, m=2.0, tol=1e-6, max_iter=300, init_centres=None, init_memberships=None, gamma=0.01,
       beta=1e15, rho=None):
    """Gustafson–Kessel with Babuska et al. (2002) safeguards, via numpy.linalg.eigh."""
    x = np.asarray(x, dtype=np.float64)
    n, d = x.shape
    rho = np.ones(c) if rho is None else np.asarray(rho, dtype=np.float64)
    f0 = np.cov(x, rowvar=False, bias=True).reshape(d, d)
    lam0 = np.linalg.eigvalsh(f0)
    scale0 = np.exp(np.log(lam0).mean()) if (lam0 > 0).all() else 0.0
    spread = spread_of(x)
    v_prev = None
    if init_memberships is not None:
        u = np.asarray(init_memberships, dtype=np.float64)
    else:
        v_prev = np.asarray(init_centres, dtype=np.float64)
        u = memberships(squared_distances(x, v_prev), m)
    history, converged, it = [], False, 0
    for it in range(1, max_iter + 1):
        um = u ** m
        v = (um.T @ x) / um.sum(axis=0)[:, None]
        converged = v_prev is not None and np.abs(v - v_prev).max() < tol * spread
        v_prev = v
        covs, norms, d2 = [], [], np.empty((n, c))
        for j in range(c):
            z = x - v[j]
            f = (um[:, j, None] * z).T @ z / um[:, j].sum()
            f = (1 - gamma) * f + gamma * scale0 * np.eye(d)
            lam, phi = np.linalg.eigh(f)
            lam = np.maximum(lam, lam.max() / beta)
            f = (phi * lam) @ phi.T
            a = np.exp((np.log(rho[j]) + np.log(lam).sum()) / d) * (phi / lam) @ phi.T
            covs.append(f)
            norms.append(a)
            d2[:, j] = np.maximum(np.einsum("nd,de,ne->n", z, a, z), 0.0)
        u = memberships(d2, m)
        history.append(float(((u ** m) * d2).sum()))
        if converged:
            break
    return dict(centers=v, memberships=u, objective_history=history, n_iter=it, converged=converged,
                covariances=np.array(covs), norm_matrices=np.array(norms))
