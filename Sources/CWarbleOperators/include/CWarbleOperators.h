#ifndef WARBLE_CWARBLEOPERATORS_H
#define WARBLE_CWARBLEOPERATORS_H

// Warble's own ONNX Runtime operators (WarbleOperators.c): fused kernels for the vocoders of the
// TTS families (Kokoro's generator today), kept apart from the C API declarations in CONNXRuntime.

#include "CONNXRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

/// The domain of Warble's own operators in rewritten model graphs.
#define WARBLE_CUSTOM_OP_DOMAIN "ai.warble"

/// Adds Warble's operators to `options`:
///   Snake(x f32 [N, C, T], alpha f32 [C] or [1, C, 1], scale f32 like alpha) -> y f32 [N, C, T],
///   y = x + scale[c] * sin(alpha[c] * x)^2, the periodic activation of HiFi-GAN/iSTFTNet
///   generators (one pass instead of Mul, Sin, Pow, Mul and Add, each a pass over the tensor).
///   AdaIN(x f32 [N, C, T], scale f32 [N, C, 1], shift f32 [N, C, 1], epsilon f32 []) -> y like x,
///   y = (x - mean) / sqrt(var + epsilon) * scale + shift over each row of T (instance normalisation
///   with a per-row affine: StyleTTS 2's AdaIN, exported as ten element-wise and reduction nodes).
/// The operator domain is created once per process and never released (sessions keep pointers to it).
OrtStatusPtr warble_add_custom_ops(const OrtApi *api, OrtSessionOptions *options);


/// The Snake activation over `count` values of one channel (exposed for tests).
void warble_snake_f32(const float *x, float *y, size_t count, float alpha, float scale);

/// AdaIN over one row of `count` values (exposed for tests).
void warble_adain_f32(const float *x, float *y, size_t count, float scale, float shift, float epsilon);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}
#endif

#endif
