#include "cluster/symmetric_eigen.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "cluster/lapack.h"
#include "kessel/error.h"

namespace kessel::cluster {

namespace {

void check_square_finite(const char* fn, const double* a, Index n) {
  KESSEL_CHECK_ARG(n >= 1, fn, ": n must be >= 1, got ", n);
  KESSEL_CHECK_ARG(n <= std::numeric_limits<int>::max() / n, fn, ": n = ", n,
                   " is beyond LAPACK's int sizes");
  for (Index e = 0; e < n * n; ++e) {
    KESSEL_CHECK_ARG(std::isfinite(a[e]), fn, ": a[", e / n, ", ", e % n, "] = ", a[e],
                     " is not finite");
  }
}

}  // namespace

SymmetricEigen symmetric_eigen(const double* a_in, Index n) {
  check_square_finite("symmetric_eigen", a_in, n);
  std::vector<double> a(a_in, a_in + n * n);
  std::vector<double> v(static_cast<size_t>(n * n), 0.0);
  for (Index i = 0; i < n; ++i) v[i * n + i] = 1.0;
  auto at = [&](Index i, Index j) -> double& { return a[static_cast<size_t>(i * n + j)]; };
  constexpr double eps = std::numeric_limits<double>::epsilon();
  constexpr int kMaxSweeps = 100;

  bool converged = false;
  for (int sweep = 0; sweep < kMaxSweeps && !converged; ++sweep) {
    converged = true;
    for (Index p = 0; p < n - 1; ++p) {
      for (Index q = p + 1; q < n; ++q) {
        const double apq = at(p, q);
        // Negligible relative to its diagonal pair: rotating would not change the eigenvalues' digits.
        if (std::abs(apq) <= eps * std::sqrt(std::abs(at(p, p)) * std::abs(at(q, q))) ||
            std::abs(apq) < std::numeric_limits<double>::min()) {
          at(p, q) = at(q, p) = 0.0;
          continue;
        }
        converged = false;
        // Rotation angle φ with cot 2φ = θ zeroes a_pq; t = tan φ is the smaller root of t² + 2θt − 1.
        const double theta = (at(q, q) - at(p, p)) / (2.0 * apq);
        const double t = std::abs(theta) > 1e150
                             ? 0.5 / theta
                             : std::copysign(1.0, theta) / (std::abs(theta) + std::hypot(theta, 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0);
        const double s = t * c;
        for (Index k = 0; k < n; ++k) {
          if (k == p || k == q) continue;
          const double akp = at(k, p), akq = at(k, q);
          at(k, p) = at(p, k) = c * akp - s * akq;
          at(k, q) = at(q, k) = s * akp + c * akq;
        }
        at(p, p) -= t * apq;
        at(q, q) += t * apq;
        at(p, q) = at(q, p) = 0.0;
        for (Index k = 0; k < n; ++k) {
          const double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  if (!converged) throw Error("symmetric_eigen: Jacobi sweeps did not converge");

  std::vector<Index> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index i, Index j) { return at(i, i) > at(j, j); });
  SymmetricEigen out;
  out.values.resize(static_cast<size_t>(n));
  out.vectors.resize(static_cast<size_t>(n * n));
  for (Index k = 0; k < n; ++k) {
    out.values[k] = at(order[k], order[k]);
    for (Index i = 0; i < n; ++i) out.vectors[i * n + k] = v[i * n + order[k]];
  }
  return out;
}

SymmetricEigen symmetric_eigen_lapack(const double* a_in, Index n, bool vectors) {
  check_square_finite("symmetric_eigen_lapack", a_in, n);
  // a is symmetric, so its row-major layout is also its column-major one; so is the result's
  // transpose, which is why the eigenvectors are copied out by column below.
  std::vector<double> a(a_in, a_in + n * n), w(static_cast<size_t>(n));
  const char jobz = vectors ? 'V' : 'N', uplo = 'U';
  const int ni = static_cast<int>(n);
  int info = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double work_query = 0;
  dsyevd_(&jobz, &uplo, &ni, a.data(), &ni, w.data(), &work_query, &lwork, &iwork_query, &liwork,
          &info, 1, 1);
  if (info != 0)
    throw Error(
        detail::concat("symmetric_eigen_lapack: dsyevd workspace query failed, info = ", info));
  lwork = static_cast<int>(work_query);
  liwork = iwork_query;
  std::vector<double> work(static_cast<size_t>(std::max(lwork, 1)));
  std::vector<int> iwork(static_cast<size_t>(std::max(liwork, 1)));
  dsyevd_(&jobz, &uplo, &ni, a.data(), &ni, w.data(), work.data(), &lwork, iwork.data(), &liwork,
          &info, 1, 1);
  if (info != 0)
    throw Error(detail::concat("symmetric_eigen_lapack: dsyevd failed, info = ", info));
  SymmetricEigen out;  // LAPACK's order is ascending, ours descending
  out.values.assign(w.rbegin(), w.rend());
  if (vectors) {
    out.vectors.resize(static_cast<size_t>(n * n));
    for (Index k = 0; k < n; ++k) {
      const double* column = a.data() + (n - 1 - k) * n;  // eigenvector of w[n-1-k], contiguous
      for (Index i = 0; i < n; ++i) out.vectors[i * n + k] = column[i];
    }
  }
  return out;
}

std::optional<double> log_det_cholesky(const double* a_in, Index n) {
  check_square_finite("log_det_cholesky", a_in, n);
  std::vector<double> a(a_in, a_in + n * n);
  const char uplo = 'U';
  const int ni = static_cast<int>(n);
  int info = 0;
  dpotrf_(&uplo, &ni, a.data(), &ni, &info, 1);
  if (info > 0) return std::nullopt;
  if (info < 0)
    throw Error(detail::concat("log_det_cholesky: dpotrf argument ", -info, " is invalid"));
  double log_det = 0;
  for (Index i = 0; i < n; ++i) log_det += 2.0 * std::log(a[i * n + i]);
  return log_det;
}

}  // namespace kessel::cluster
