#include "CVectorMath.h"

#include <math.h>
#include <string.h>

#define LANES 16
#define TOP_K_LIMIT 64

// Reductions may be reordered (lane-wise partial results), which is what lets them vectorise.
#pragma clang fp reassociate(on)

float warble_max_f32(const float *values, size_t count) {
    float lanes[LANES];
    for (int j = 0; j < LANES; j++) lanes[j] = -INFINITY;
    size_t full = count / LANES * LANES;
    for (size_t i = 0; i < full; i += LANES) {
        for (int j = 0; j < LANES; j++) {
            float v = values[i + j];
            lanes[j] = v > lanes[j] ? v : lanes[j];
        }
    }
    float best = -INFINITY;
    for (int j = 0; j < LANES; j++) best = lanes[j] > best ? lanes[j] : best;
    for (size_t i = full; i < count; i++) best = values[i] > best ? values[i] : best;
    return best;
}

static inline float exp_nonpositive(float x) {
    float c = x < -87.0f ? -87.0f : x;
    float t = c * 1.44269504f + 12582912.0f;  // round to nearest through the float mantissa
    float n = t - 12582912.0f;
    float r = c - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float y = p * (r * r) + r + 1.0f;
    int32_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits = (bits - 0x4B400000 + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return x < -87.0f ? 0.0f : y * scale;
}

double warble_sum_exp_f32(const float *values, size_t count, float shift) {
    double total = 0.0;
    size_t full = count / LANES * LANES;
    size_t i = 0;
    while (i < full) {
        // Float partial sums over at most 1,024 values, then double.
        size_t end = i + 1024 < full ? i + 1024 : full;
        float lanes[LANES] = {0};
        for (; i < end; i += LANES) {
            for (int j = 0; j < LANES; j++) lanes[j] += exp_nonpositive(values[i + j] - shift);
        }
        float block = 0.0f;
        for (int j = 0; j < LANES; j++) block += lanes[j];
        total += block;
    }
    for (; i < count; i++) total += exp_nonpositive(values[i] - shift);
    return total;
}

size_t warble_top_k_f32(const float *values, size_t count, size_t k, int64_t *indices) {
    if (k > TOP_K_LIMIT) k = TOP_K_LIMIT;
    if (k > count) k = count;
    if (k == 0) return 0;
    float best[TOP_K_LIMIT];
    size_t held = 0;
    size_t full = count / LANES * LANES;
    for (size_t i = 0; i < count; i++) {
        if (held == k && i % LANES == 0 && i < full) {
            // Skip a block whose largest value cannot enter (one vectorised max per 16 values).
            float block = -INFINITY;
            for (int j = 0; j < LANES; j++) block = values[i + j] > block ? values[i + j] : block;
            if (!(block > best[k - 1])) { i += LANES - 1; continue; }
        }
        float v = values[i];
        if (held == k && !(v > best[k - 1])) continue;
        size_t at = held < k ? held : k - 1;
        while (at > 0 && best[at - 1] < v) {
            best[at] = best[at - 1];
            indices[at] = indices[at - 1];
            at--;
        }
        best[at] = v;
        indices[at] = (int64_t)i;
        if (held < k) held++;
    }
    return held;
}
