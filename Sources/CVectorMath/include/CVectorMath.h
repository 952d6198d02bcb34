#ifndef WARBLE_CVECTORMATH_H
#define WARBLE_CVECTORMATH_H

#include <stddef.h>
#include <stdint.h>

/// Float kernels for decoding over a vocabulary (51,864 logits per row and step), written so that
/// the C compiler vectorises them (Swift's SIMD types scalarise these loops on x86-64).

/// The largest of `count` values; -infinity when `count` is 0.
float warble_max_f32(const float *values, size_t count);

/// The sum of exp(v - shift) over `values` (each v <= shift), in double precision; -infinity and
/// values more than 87 below `shift` count as 0. exp is Cephes' single-precision polynomial (< 2 ulp).
double warble_sum_exp_f32(const float *values, size_t count, float shift);

/// Writes the indices of the `k` largest values, largest first (the lower index first on ties), to
/// `indices`; returns how many were written (min(k, count)). `k` is at most 64.
size_t warble_top_k_f32(const float *values, size_t count, size_t k, int64_t *indices);

#endif
