// Warble's custom operators for ONNX Runtime (declared at the end of include/CONNXRuntime.h).
#include "CONNXRuntime.h"

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

typedef struct SnakeKernel {
    const OrtApi *api;
} SnakeKernel;

static void *snake_create(const OrtCustomOp *op, const OrtApi *api, const OrtKernelInfo *info) {
    (void)op;
    (void)info;
    SnakeKernel *kernel = malloc(sizeof *kernel);
    if (kernel) kernel->api = api;
    return kernel;
}

static const char *snake_name(const OrtCustomOp *op) { (void)op; return "Snake"; }
static const char *snake_provider(const OrtCustomOp *op) { (void)op; return "CPUExecutionProvider"; }
static ONNXTensorElementDataType snake_type(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
}
static size_t snake_inputs(const OrtCustomOp *op) { (void)op; return 3; }
static size_t snake_outputs(const OrtCustomOp *op) { (void)op; return 1; }

/// Element count of a tensor value, or 0 (with its dims in `dims` when `dims` is given).
static size_t value_shape(const OrtApi *api, const OrtValue *value, int64_t *dims, size_t *rank) {
    OrtTensorTypeAndShapeInfo *info = NULL;
    size_t count = 0, n = 0;
    if (api->GetTensorTypeAndShape(value, &info) != NULL || info == NULL) return 0;
    if (api->GetTensorShapeElementCount(info, &count) != NULL) count = 0;
    if (dims && rank && api->GetDimensionsCount(info, &n) == NULL && n <= *rank &&
        api->GetDimensions(info, dims, n) == NULL) {
        *rank = n;
    } else if (rank) {
        *rank = 0;
    }
    api->ReleaseTensorTypeAndShapeInfo(info);
    return count;
}

// Version 1 kernels cannot report errors: the model rewrite (tools/models/fuse_snake.py) only makes
// Snake nodes whose alpha and scale hold one value per channel of x; anything else gives NaN, which
// the pipelines reject as a failed run, rather than a crash.
static void snake_compute(void *op_kernel, OrtKernelContext *context) {
    SnakeKernel *kernel = op_kernel;
    const OrtApi *api = kernel->api;
    const OrtValue *x = NULL, *alpha = NULL, *scale = NULL;
    if (api->KernelContext_GetInput(context, 0, &x) != NULL || api->KernelContext_GetInput(context, 1, &alpha) != NULL ||
        api->KernelContext_GetInput(context, 2, &scale) != NULL || !x || !alpha || !scale) {
        return;
    }
    int64_t dims[8];
    size_t rank = 8;
    size_t total = value_shape(api, x, dims, &rank);
    size_t alphas = value_shape(api, alpha, NULL, NULL), scales = value_shape(api, scale, NULL, NULL);
    OrtValue *out = NULL;
    if (api->KernelContext_GetOutput(context, 0, dims, rank, &out) != NULL || out == NULL) return;
    float *y = NULL, *xs = NULL, *as = NULL, *ss = NULL;
    if (api->GetTensorMutableData(out, (void **)&y) != NULL ||
        api->GetTensorMutableData((OrtValue *)x, (void **)&xs) != NULL ||
        api->GetTensorMutableData((OrtValue *)alpha, (void **)&as) != NULL ||
        api->GetTensorMutableData((OrtValue *)scale, (void **)&ss) != NULL || !y || !xs || !as || !ss) {
        return;
    }
    size_t channels = rank >= 2 ? (size_t)dims[1] : 0;
    if (total == 0) return;
    if (rank != 3 || channels == 0 || alphas != channels || scales != channels) {
        for (size_t i = 0; i < total; i++) y[i] = __builtin_nanf("");
        return;
    }
    size_t length = (size_t)dims[2];
    for (size_t row = 0; row < total / length; row++) {
        size_t c = row % channels;
        warble_snake_f32(xs + row * length, y + row * length, length, as[c], ss[c]);
    }
}

static void snake_destroy(void *op_kernel) { free(op_kernel); }
static OrtCustomOpInputOutputCharacteristic snake_required(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return INPUT_OUTPUT_REQUIRED;
}
static OrtMemType snake_memory(const OrtCustomOp *op, size_t index) {
    (void)op;
    (void)index;
    return OrtMemTypeDefault;
}
static int snake_one(const OrtCustomOp *op) { (void)op; return 1; }
static int snake_last_version(const OrtCustomOp *op) { (void)op; return 2147483647; }

static const OrtCustomOp snake_op = {
    .version = WARBLE_ORT_API_LEVEL,
    .CreateKernel = snake_create,
    .GetName = snake_name,
    .GetExecutionProviderType = snake_provider,
    .GetInputType = snake_type,
    .GetInputTypeCount = snake_inputs,
    .GetOutputType = snake_type,
    .GetOutputTypeCount = snake_outputs,
    .KernelCompute = snake_compute,
    .KernelDestroy = snake_destroy,
    .GetInputCharacteristic = snake_required,
    .GetOutputCharacteristic = snake_required,
    .GetInputMemoryType = snake_memory,
    .GetVariadicInputMinArity = snake_one,
    .GetVariadicInputHomogeneity = snake_one,
    .GetVariadicOutputMinArity = snake_one,
    .GetVariadicOutputHomogeneity = snake_one,
    .GetStartVersion = snake_one,
    .GetEndVersion = snake_last_version,
};

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
        if (status == NULL && (status = api->CustomOpDomain_Add(created, &snake_op)) != NULL) {
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
