// The few LAPACK routines the cluster area calls, declared with the Fortran calling convention of
// the LAPACK that OpenBLAS ships (Debian's libopenblas exports dsyevd_ and dpotrf_; its LAPACKE is
// not packaged, and these two need no more than this). Character arguments carry their hidden
// length at the end, as gfortran passes it. Internal to the cluster area.
#pragma once

#include <cstddef>

extern "C" {
// Eigenvalues (ascending) and, with jobz = 'V', eigenvectors of a symmetric matrix, divide and
// conquer.
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info,
             std::size_t jobz_len, std::size_t uplo_len);
// Cholesky factorisation of a symmetric positive definite matrix; info > 0: not positive definite.
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info,
             std::size_t uplo_len);
}
