// Warble's own operators for ONNX Runtime (declared in include/CWarbleOperators.h).
#include "CWarbleOperators.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

// sin(t)^2 has period pi: t = k pi + r with |r| <= pi / 2, and sin(t)^2 = sin(r)^2. pi is split in
// three (Cody and Waite) so that r stays accurate for |t| up to about 10^4; sin(r) is its Taylor
// series to r^11 (truncation below 6e-8 at |r| = pi / 2).
static inline __attribute__((always_inline)) float sin_squared(float t) {
    const float inv_pi = 0.318309886183790671538f;
    const float pi_a = 3.140625f, pi_b = 9.67502593994140625e-4f, pi_c = 1.509957990978376432e-7f;
    const float magic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to the nearest integer
    float k = (t * inv_pi + magic) - magic;
    float r = ((t - k * pi_a) - k * pi_b) - k * pi_c;
    float r2 = r * r;
    float p = -2.50521083854417187751e-8f;
    p = p * r2 + 2.75573192239858906526e-6f;
    p = p * r2 - 1.98412698412698412698e-4f;
    p = p * r2 + 8.33333333333333333333e-3f;
    p = p * r2 - 1.66666666666666666667e-1f;
    float s = r + r * r2 * p;
    return s * s;
}

#define SNAKE_LOOP                                           \
    for (size_t i = 0; i < count; i++) {                     \
        float v = x[i];                                      \
        y[i] = v + scale * sin_squared(alpha * v);           \
    }

static void snake_generic(const float *x, float *y, size_t count, float alpha, float scale) { SNAKE_LOOP }

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// The same loop compiled for wider vectors, chosen at run time (in cache: 0.77 ns a value with
// SSE2, 0.26 with AVX2, 0.14 with AVX-512). With FMA the last bit of a result may differ.
__attribute__((target("avx2,fma")))
static void snake_avx2(const float *x, float *y, size_t count, float alpha, float scale) { SNAKE_LOOP }
__attribute__((target("avx512f,fma")))
static void snake_avx512(const float *x, float *y, size_t count, float alpha, float scale) { SNAKE_LOOP }

typedef void (*SnakeLoop)(const float *, float *, size_t, float, float);

static SnakeLoop snake_loop(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return snake_avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return snake_avx2;
    return snake_generic;
}

void warble_snake_f32(const float *x, float *y, size_t count, float alpha, float scale) {
    static SnakeLoop chosen;  // a benign race: every thread computes the same pointer
    SnakeLoop loop = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (loop == NULL) {
        loop = snake_loop();
        __atomic_store_n(&chosen, loop, __ATOMIC_RELAXED);
    }
    loop(x, y, count, alpha, scale);
}
#else
void warble_snake_f32(const float *x, float *y, size_t count, float alpha, float scale) {
    snake_generic(x, y, count, alpha, scale);
}
#endif

// Instance normalisation of one channel with a per-channel affine (StyleTTS 2 / Kokoro's AdaIN:
// the scale is 1 + gamma and the shift beta, both from the style vector): mean, then the mean of
// squared deviations (two passes, as the exported graph computes them), then one pass to write.
void warble_adain_f32(const float *x, float *y, size_t count, float scale, float shift, float epsilon) {
#pragma clang fp reassociate(on)  // lets the two sums vectorise (ONNX Runtime's ReduceMean is unordered too)
    if (count == 0) return;
    // Summed relative to the first value, so that a large common offset does not eat the precision.
    float origin = x[0], sum = 0;
    for (size_t i = 0; i < count; i++) sum += x[i] - origin;
    float mean = origin + sum / (float)count;
    float squares = 0;
    for (size_t i = 0; i < count; i++) {
        float d = x[i] - mean;
        squares += d * d;
    }
    float factor = scale / sqrtf(squares / (float)count + epsilon);
    for (size_t i = 0; i < count; i++) y[i] = (x[i] - mean) * factor + shift;
}

// MARK: ONNX Runtime glue shared by the operators

typedef struct Kernel {
    const OrtApi *api;
} Kernel;

static void *kernel_create(const OrtCustomOp *op, const OrtApi *api, const OrtKernelInfo *info) {
    (void)op;
    (void)info;
    Kernel *kernel = malloc(sizeof *kernel);
    if (kernel) kernel->api = api;
    return kernel;
}

static void kernel_destroy(void *op_kernel) { free(op_kernel); }
static const char *cpu_provider(const OrtCustomOp *op) { (void)op; return "CPUExecutionProvider"; }
static ONNXTensorElementDataType float_type(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
}
static size_t one_output(const OrtCustomOp *op) { (void)op; return 1; }
static OrtCustomOpInputOutputCharacteristic required(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return INPUT_OUTPUT_REQUIRED;
}
static OrtMemType default_memory(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return OrtMemTypeDefault;
}
static int one(const OrtCustomOp *op) { (void)op; return 1; }
static int last_version(const OrtCustomOp *op) { (void)op; return 2147483647; }

#define WARBLE_OP(op_name, inputs_fn, compute_fn)                                                  \
    {                                                                                              \
        .version = WARBLE_ORT_API_LEVEL, .CreateKernel = kernel_create, .GetName = op_name,        \
        .GetExecutionProviderType = cpu_provider, .GetInputType = float_type,                      \
        .GetInputTypeCount = inputs_fn, .GetOutputType = float_type, .GetOutputTypeCount = one_output, \
        .KernelCompute = compute_fn, .KernelDestroy = kernel_destroy,                              \
        .GetInputCharacteristic = required, .GetOutputCharacteristic = required,                   \
        .GetInputMemoryType = default_memory, .GetVariadicInputMinArity = one,                     \
        .GetVariadicInputHomogeneity = one, .GetVariadicOutputMinArity = one,                      \
        .GetVariadicOutputHomogeneity = one, .GetStartVersion = one, .GetEndVersion = last_version, \
    }

/// A float input's data and element count (0 when absent or unreadable); its dims into `dims`.
static size_t input_floats(const OrtApi *api, OrtKernelContext *context, size_t index, float **data,
                           int64_t *dims, size_t *rank) {
    const OrtValue *value = NULL;
    OrtTensorTypeAndShapeInfo *info = NULL;
    size_t count = 0, n = 0;
    *data = NULL;
    if (rank) *rank = 0;
    if (api->KernelContext_GetInput(context, index, &value) != NULL || value == NULL) return 0;
    if (api->GetTensorMutableData((OrtValue *)value, (void **)data) != NULL || *data == NULL) return 0;
    if (api->GetTensorTypeAndShape(value, &info) != NULL || info == NULL) return 0;
    if (api->GetTensorShapeElementCount(info, &count) != NULL) count = 0;
    if (dims && rank && api->GetDimensionsCount(info, &n) == NULL && n <= 8 && api->GetDimensions(info, dims, n) == NULL) {
        *rank = n;
    }
    api->ReleaseTensorTypeAndShapeInfo(info);
    return count;
}

/// The input `x` [N, C, T] (input 0) and an output of its shape; `rows` = N * C, `channels` = C,
/// `length` = T. Returns 0 when there is nothing to do or the output cannot be made.
static size_t rows_of_x(const OrtApi *api, OrtKernelContext *context, float **x, float **y, size_t *channels,
                        size_t *length) {
    int64_t dims[8];
    size_t rank = 0;
    size_t total = input_floats(api, context, 0, x, dims, &rank);
    OrtValue *out = NULL;
    if (api->KernelContext_GetOutput(context, 0, dims, rank, &out) != NULL || out == NULL) return 0;
    if (api->GetTensorMutableData(out, (void **)y) != NULL || *y == NULL || total == 0) return 0;
    if (rank != 3 || dims[1] <= 0 || dims[2] <= 0) {
        for (size_t i = 0; i < total; i++) (*y)[i] = __builtin_nanf("");
        return 0;
    }
    *channels = (size_t)dims[1];
    *length = (size_t)dims[2];
    return total / *length;
}

// Version-15 kernels cannot report errors: the model rewrites (tools/models/fuse_*.py) only make
// nodes whose per-channel inputs fit x; anything else gives NaN, which the pipelines reject as a
// failed run, rather than a crash or a read past the end.
static void fill_nan(float *y, size_t count) {
    for (size_t i = 0; i < count; i++) y[i] = __builtin_nanf("");
}

// MARK: Snake(x [N, C, T], alpha [C] or [1, C, 1], scale like alpha)

static const char *snake_name(const OrtCustomOp *op) { (void)op; return "Snake"; }
static size_t snake_inputs(const OrtCustomOp *op) { (void)op; return 3; }

static void snake_compute(void *op_kernel, OrtKernelContext *context) {
    const OrtApi *api = ((Kernel *)op_kernel)->api;
    float *x = NULL, *y = NULL, *alpha = NULL, *scale = NULL;
    size_t channels = 0, length = 0;
    size_t rows = rows_of_x(api, context, &x, &y, &channels, &length);
    if (rows == 0) return;
    size_t alphas = input_floats(api, context, 1, &alpha, NULL, NULL);
    size_t scales = input_floats(api, context, 2, &scale, NULL, NULL);
    if (alphas != channels || scales != channels) {
        fill_nan(y, rows * length);
        return;
    }
    for (size_t row = 0; row < rows; row++) {
        size_t c = row % channels;
        warble_snake_f32(x + row * length, y + row * length, length, alpha[c], scale[c]);
    }
}

// MARK: AdaIN(x [N, C, T], scale [N, C, 1], shift [N, C, 1], epsilon []): instance norm + affine

static const char *adain_name(const OrtCustomOp *op) { (void)op; return "AdaIN"; }
static size_t adain_inputs(const OrtCustomOp *op) { (void)op; return 4; }

static void adain_compute(void *op_kernel, OrtKernelContext *context) {
    const OrtApi *api = ((Kernel *)op_kernel)->api;
    float *x = NULL, *y = NULL, *scale = NULL, *shift = NULL, *epsilon = NULL;
    size_t channels = 0, length = 0;
    size_t rows = rows_of_x(api, context, &x, &y, &channels, &length);
    if (rows == 0) return;
    size_t scales = input_floats(api, context, 1, &scale, NULL, NULL);
    size_t shifts = input_floats(api, context, 2, &shift, NULL, NULL);
    size_t epsilons = input_floats(api, context, 3, &epsilon, NULL, NULL);
    if (scales != rows || shifts != rows || epsilons != 1) {
        fill_nan(y, rows * length);
        return;
    }
    for (size_t row = 0; row < rows; row++) {
        warble_adain_f32(x + row * length, y + row * length, length, scale[row], shift[row], *epsilon);
    }
}

static const OrtCustomOp snake_op = WARBLE_OP(snake_name, snake_inputs, snake_compute);
static const OrtCustomOp adain_op = WARBLE_OP(adain_name, adain_inputs, adain_compute);

// One domain for the whole process: ONNX Runtime keeps a pointer to it in every session made with
// it, so it is created once, never released, and shared by all session options.
static pthread_mutex_t domain_lock = PTHREAD_MUTEX_INITIALIZER;
static OrtCustomOpDomain *shared_domain;

OrtStatusPtr warble_add_custom_ops(const OrtApi *api, OrtSessionOptions *options) {
    OrtStatusPtr status = NULL;
    pthread_mutex_lock(&domain_lock);
    if (shared_domain == NULL) {
        OrtCustomOpDomain *created = NULL;
        status = api->CreateCustomOpDomain(WARBLE_CUSTOM_OP_DOMAIN, &created);
        if (status == NULL && ((status = api->CustomOpDomain_Add(created, &snake_op)) != NULL ||
                               (status = api->CustomOpDomain_Add(created, &adain_op)) != NULL)) {
            api->ReleaseCustomOpDomain(created);
            created = NULL;
        }
        shared_domain = created;
    }
    OrtCustomOpDomain *domain = shared_domain;
    pthread_mutex_unlock(&domain_lock);
    if (status != NULL) return status;
    return api->AddCustomOpDomain(options, domain);
}
