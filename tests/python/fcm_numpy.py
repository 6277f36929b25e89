"""Independent, vectorized numpy fuzzy c-means (scikit-fuzzy's formulation) and Gustafson–Kessel.

Written from the equations, not from kessel's C++: memberships from *squared* distances with the
exponent 1/(m-1), i.e. scikit-fuzzy's d ** (-2/(m-1)) on plain distances, normalised per point.
Iteration t: V_t from U_{t-1}, U_t from V_t, J_t = sum U_t^m d2(V_t); stop when max|U_t - U_{t-1}| < tol.
Used by tests/python/test_cluster.py (parity) and bench/cluster_bench.py (baseline).
"""
import numpy as np


def squared_distances(x, v):
    """[N, C] squared Euclidean distances by broadcasting (no GEMM identity)."""
    diff = x[:, None, :] - v[None, :, :]
    return np.einsum("ncd,ncd->nc", diff, diff)


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


def centres_from(x, u, m):
    um = u ** m
    return (um.T @ x) / um.sum(axis=0)[:, None]


def fcm(x, c, m=2.0, tol=1e-6, max_iter=300, init_centres=None, init_memberships=None,
        distance=squared_distances):
    """Returns dict(centers, memberships, objective_history, n_iter, converged)."""
    x = np.asarray(x, dtype=np.float64)
    if init_memberships is not None:
        u = np.asarray(init_memberships, dtype=np.float64)
    else:
        u = memberships(distance(x, np.asarray(init_centres, dtype=np.float64)), m)
    history, converged, it = [], False, 0
    for it in range(1, max_iter + 1):
        v = centres_from(x, u, m)
        d2 = distance(x, v)
        u_new = memberships(d2, m)
        history.append(float(((u_new ** m) * d2).sum()))
        change = np.abs(u_new - u).max()
        u = u_new
        if change < tol:
            converged = True
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
    if init_memberships is not None:
        u = np.asarray(init_memberships, dtype=np.float64)
    else:
        u = memberships(squared_distances(x, np.asarray(init_centres, dtype=np.float64)), m)
    history, converged, it = [], False, 0
    for it in range(1, max_iter + 1):
        um = u ** m
        v = (um.T @ x) / um.sum(axis=0)[:, None]
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
        u_new = memberships(d2, m)
        history.append(float(((u_new ** m) * d2).sum()))
        change = np.abs(u_new - u).max()
        u = u_new
        if change < tol:
            converged = True
            break
    return dict(centers=v, memberships=u, objective_history=history, n_iter=it, converged=converged,
                covariances=np.array(covs), norm_matrices=np.array(norms))
