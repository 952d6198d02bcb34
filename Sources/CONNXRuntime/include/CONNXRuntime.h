// Warble's own declarations of the part of ONNX Runtime's C API that Warble uses.
//
// Written for this project from the published API facts (names, parameter types, slot order);
// no ONNX Runtime header ships in any package we can install, and none is copied here.
//
// The library is never linked: ONNXRuntime opens it with dlopen and looks up OrtGetApiBase.
// `OrtApi` is a table of function pointers that only grows at its end; a slot's position never
// changes. Slots Warble does not call are padding (`_slots_A_B`, slots A to B inclusive), and every
// slot that is declared is checked below with a static assertion of its offset.
#ifndef WARBLE_CONNXRUNTIME_H
#define WARBLE_CONNXRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The API level Warble asks GetApi for: the newest slot used (GetBuildInfoString) came with 1.15.
#define WARBLE_ORT_API_LEVEL 15

// Function-pointer members and multi-level out-parameters carry no annotation of their own; the
// assumption below makes them non-optional in Swift, and `_Nullable` marks what may be NULL.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-inferred-on-nested-type"
#pragma clang assume_nonnull begin

typedef enum ONNXTensorElementDataType {
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED = 0,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT = 1,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 = 2,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 = 3,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 = 4,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16 = 5,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 = 6,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 = 7,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING = 8,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL = 9,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 = 10,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE = 11,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32 = 12,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64 = 13,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX64 = 14,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX128 = 15,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16 = 16,
} ONNXTensorElementDataType;

typedef enum ONNXType {
    ONNX_TYPE_UNKNOWN = 0,
    ONNX_TYPE_TENSOR = 1,
    ONNX_TYPE_SEQUENCE = 2,
    ONNX_TYPE_MAP = 3,
    ONNX_TYPE_OPAQUE = 4,
    ONNX_TYPE_SPARSETENSOR = 5,
    ONNX_TYPE_OPTIONAL = 6,
} ONNXType;

typedef enum OrtLoggingLevel {
    ORT_LOGGING_LEVEL_VERBOSE = 0,
    ORT_LOGGING_LEVEL_INFO = 1,
    ORT_LOGGING_LEVEL_WARNING = 2,
    ORT_LOGGING_LEVEL_ERROR = 3,
    ORT_LOGGING_LEVEL_FATAL = 4,
} OrtLoggingLevel;

typedef enum OrtErrorCode {
    ORT_OK = 0,
    ORT_FAIL = 1,
    ORT_INVALID_ARGUMENT = 2,
    ORT_NO_SUCHFILE = 3,
    ORT_NO_MODEL = 4,
    ORT_ENGINE_ERROR = 5,
    ORT_RUNTIME_EXCEPTION = 6,
    ORT_INVALID_PROTOBUF = 7,
    ORT_MODEL_LOADED = 8,
    ORT_NOT_IMPLEMENTED = 9,
    ORT_INVALID_GRAPH = 10,
    ORT_EP_FAIL = 11,
} OrtErrorCode;

typedef enum GraphOptimizationLevel {
    ORT_DISABLE_ALL = 0,
    ORT_ENABLE_BASIC = 1,
    ORT_ENABLE_EXTENDED = 2,
    ORT_ENABLE_LAYOUT = 3,
    ORT_ENABLE_ALL = 99,
} GraphOptimizationLevel;

typedef enum ExecutionMode {
    ORT_SEQUENTIAL = 0,
    ORT_PARALLEL = 1,
} ExecutionMode;

typedef enum OrtAllocatorType {
    OrtInvalidAllocator = -1,
    OrtDeviceAllocator = 0,
    OrtArenaAllocator = 1,
} OrtAllocatorType;

typedef enum OrtMemType {
    OrtMemTypeCPUInput = -2,
    OrtMemTypeCPUOutput = -1,
    OrtMemTypeDefault = 0,
} OrtMemType;

// Opaque handles: only ever used through pointers.
typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTypeInfo OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtModelMetadata OrtModelMetadata;
typedef struct OrtThreadingOptions OrtThreadingOptions;
typedef struct OrtAllocator OrtAllocator;
typedef struct OrtCustomOpDomain OrtCustomOpDomain;
typedef struct OrtKernelInfo OrtKernelInfo;
typedef struct OrtKernelContext OrtKernelContext;
typedef struct OrtCustomOp OrtCustomOp;

/// A status: NULL means success; otherwise it must be released with ReleaseStatus.
typedef OrtStatus *_Nullable OrtStatusPtr;

typedef struct OrtApi {
    void *_Nullable _slots_0_0[1];
    OrtErrorCode (*GetErrorCode)(const OrtStatus *status);
    const char *(*GetErrorMessage)(const OrtStatus *status);
    OrtStatusPtr (*CreateEnv)(OrtLoggingLevel log_severity_level, const char *logid, OrtEnv *_Nullable *out);
    void *_Nullable _slots_4_6[3];
    OrtStatusPtr (*CreateSession)(const OrtEnv *env, const char *model_path, const OrtSessionOptions *options, OrtSession *_Nullable *out);
    OrtStatusPtr (*CreateSessionFromArray)(const OrtEnv *env, const void *model_data, size_t model_data_length, const OrtSessionOptions *options, OrtSession *_Nullable *out);
    OrtStatusPtr (*Run)(OrtSession *session, const OrtRunOptions *_Nullable run_options, const char *const *input_names, const OrtValue *const *inputs, size_t input_len, const char *const *output_names, size_t output_names_len, OrtValue *_Nullable *outputs);
    OrtStatusPtr (*CreateSessionOptions)(OrtSessionOptions *_Nullable *options);
    OrtStatusPtr (*SetOptimizedModelFilePath)(OrtSessionOptions *options, const char *optimized_model_filepath);
    void *_Nullable _slots_12_12[1];
    OrtStatusPtr (*SetSessionExecutionMode)(OrtSessionOptions *options, ExecutionMode execution_mode);
    OrtStatusPtr (*EnableProfiling)(OrtSessionOptions *options, const char *profile_file_prefix);
    void *_Nullable _slots_15_15[1];
    OrtStatusPtr (*EnableMemPattern)(OrtSessionOptions *options);
    OrtStatusPtr (*DisableMemPattern)(OrtSessionOptions *options);
    OrtStatusPtr (*EnableCpuMemArena)(OrtSessionOptions *options);
    OrtStatusPtr (*DisableCpuMemArena)(OrtSessionOptions *options);
    void *_Nullable _slots_20_21[2];
    OrtStatusPtr (*SetSessionLogSeverityLevel)(OrtSessionOptions *options, int session_log_severity_level);
    OrtStatusPtr (*SetSessionGraphOptimizationLevel)(OrtSessionOptions *options, GraphOptimizationLevel graph_optimization_level);
    OrtStatusPtr (*SetIntraOpNumThreads)(OrtSessionOptions *options, int intra_op_num_threads);
    OrtStatusPtr (*SetInterOpNumThreads)(OrtSessionOptions *options, int inter_op_num_threads);
    OrtStatusPtr (*CreateCustomOpDomain)(const char *domain, OrtCustomOpDomain *_Nullable *out);
    OrtStatusPtr (*CustomOpDomain_Add)(OrtCustomOpDomain *custom_op_domain, const OrtCustomOp *op);
    OrtStatusPtr (*AddCustomOpDomain)(OrtSessionOptions *options, OrtCustomOpDomain *custom_op_domain);
    void *_Nullable _slots_29_29[1];
    OrtStatusPtr (*SessionGetInputCount)(const OrtSession *session, size_t *out);
    OrtStatusPtr (*SessionGetOutputCount)(const OrtSession *session, size_t *out);
    void *_Nullable _slots_32_32[1];
    OrtStatusPtr (*SessionGetInputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo *_Nullable *type_info);
    OrtStatusPtr (*SessionGetOutputTypeInfo)(const OrtSession *session, size_t index, OrtTypeInfo *_Nullable *type_info);
    void *_Nullable _slots_35_35[1];
    OrtStatusPtr (*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char *_Nullable *value);
    OrtStatusPtr (*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char *_Nullable *value);
    void *_Nullable _slots_38_38[1];
    OrtStatusPtr (*CreateRunOptions)(OrtRunOptions *_Nullable *out);
    void *_Nullable _slots_40_40[1];
    OrtStatusPtr (*RunOptionsSetRunLogSeverityLevel)(OrtRunOptions *options, int log_severity_level);
    void *_Nullable _slots_42_45[4];
    OrtStatusPtr (*RunOptionsSetTerminate)(OrtRunOptions *options);
    OrtStatusPtr (*RunOptionsUnsetTerminate)(OrtRunOptions *options);
    OrtStatusPtr (*CreateTensorAsOrtValue)(OrtAllocator *allocator, const int64_t *_Nullable shape, size_t shape_len, ONNXTensorElementDataType type, OrtValue *_Nullable *out);
    OrtStatusPtr (*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *p_data, size_t p_data_len, const int64_t *_Nullable shape, size_t shape_len, ONNXTensorElementDataType type, OrtValue *_Nullable *out);
    OrtStatusPtr (*IsTensor)(const OrtValue *value, int *out);
    OrtStatusPtr (*GetTensorMutableData)(OrtValue *value, void *_Nullable *out);
    void *_Nullable _slots_52_54[3];
    OrtStatusPtr (*CastTypeInfoToTensorInfo)(const OrtTypeInfo *type_info, const OrtTensorTypeAndShapeInfo *_Nullable *out);
    OrtStatusPtr (*GetOnnxTypeFromTypeInfo)(const OrtTypeInfo *type_info, ONNXType *out);
    void *_Nullable _slots_57_59[3];
    OrtStatusPtr (*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info, ONNXTensorElementDataType *out);
    OrtStatusPtr (*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    OrtStatusPtr (*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dim_values, size_t dim_values_length);
    OrtStatusPtr (*GetSymbolicDimensions)(const OrtTensorTypeAndShapeInfo *info, const char *_Nullable *dim_params, size_t dim_params_length);
    OrtStatusPtr (*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    OrtStatusPtr (*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo *_Nullable *out);
    void *_Nullable _slots_66_66[1];
    OrtStatusPtr (*GetValueType)(const OrtValue *value, ONNXType *out);
    void *_Nullable _slots_68_68[1];
    OrtStatusPtr (*CreateCpuMemoryInfo)(OrtAllocatorType type, OrtMemType mem_type, OrtMemoryInfo *_Nullable *out);
    void *_Nullable _slots_70_75[6];
    OrtStatusPtr (*AllocatorFree)(OrtAllocator *ort_allocator, void *p);
    void *_Nullable _slots_77_77[1];
    OrtStatusPtr (*GetAllocatorWithDefaultOptions)(OrtAllocator *_Nullable *out);
    void *_Nullable _slots_79_89[11];
    OrtStatusPtr (*KernelContext_GetInput)(const OrtKernelContext *context, size_t index, const OrtValue *_Nullable *out);
    OrtStatusPtr (*KernelContext_GetOutput)(OrtKernelContext *context, size_t index, const int64_t *dim_values, size_t dim_count, OrtValue *_Nullable *out);
    void (*ReleaseEnv)(OrtEnv *input);
    void (*ReleaseStatus)(OrtStatus *input);
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *input);
    void (*ReleaseSession)(OrtSession *input);
    void (*ReleaseValue)(OrtValue *input);
    void (*ReleaseRunOptions)(OrtRunOptions *input);
    void (*ReleaseTypeInfo)(OrtTypeInfo *input);
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *input);
    void (*ReleaseSessionOptions)(OrtSessionOptions *input);
    void (*ReleaseCustomOpDomain)(OrtCustomOpDomain *input);
    void *_Nullable _slots_102_109[8];
    OrtStatusPtr (*SessionEndProfiling)(OrtSession *session, OrtAllocator *allocator, char *_Nullable *out);
    OrtStatusPtr (*SessionGetModelMetadata)(const OrtSession *session, OrtModelMetadata *_Nullable *out);
    OrtStatusPtr (*ModelMetadataGetProducerName)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *value);
    OrtStatusPtr (*ModelMetadataGetGraphName)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *value);
    OrtStatusPtr (*ModelMetadataGetDomain)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *value);
    OrtStatusPtr (*ModelMetadataGetDescription)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *value);
    OrtStatusPtr (*ModelMetadataLookupCustomMetadataMap)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, const char *key, char *_Nullable *value);
    OrtStatusPtr (*ModelMetadataGetVersion)(const OrtModelMetadata *model_metadata, int64_t *value);
    void (*ReleaseModelMetadata)(OrtModelMetadata *input);
    OrtStatusPtr (*CreateEnvWithGlobalThreadPools)(OrtLoggingLevel log_severity_level, const char *logid, const OrtThreadingOptions *tp_options, OrtEnv *_Nullable *out);
    OrtStatusPtr (*DisablePerSessionThreads)(OrtSessionOptions *options);
    OrtStatusPtr (*CreateThreadingOptions)(OrtThreadingOptions *_Nullable *out);
    void (*ReleaseThreadingOptions)(OrtThreadingOptions *input);
    OrtStatusPtr (*ModelMetadataGetCustomMetadataMapKeys)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *_Nullable *_Nullable keys, int64_t *num_keys);
    void *_Nullable _slots_124_124[1];
    OrtStatusPtr (*GetAvailableProviders)(char *_Nullable *_Nullable *_Nullable out_ptr, int *provider_length);
    OrtStatusPtr (*ReleaseAvailableProviders)(char *_Nullable *_Nullable ptr, int providers_length);
    void *_Nullable _slots_127_129[3];
    OrtStatusPtr (*AddSessionConfigEntry)(OrtSessionOptions *options, const char *config_key, const char *config_value);
    void *_Nullable _slots_131_146[16];
    OrtStatusPtr (*SetGlobalIntraOpNumThreads)(OrtThreadingOptions *tp_options, int intra_op_num_threads);
    OrtStatusPtr (*SetGlobalInterOpNumThreads)(OrtThreadingOptions *tp_options, int inter_op_num_threads);
    OrtStatusPtr (*SetGlobalSpinControl)(OrtThreadingOptions *tp_options, int allow_spinning);
    void *_Nullable _slots_150_157[8];
    OrtStatusPtr (*ModelMetadataGetGraphDescription)(const OrtModelMetadata *model_metadata, OrtAllocator *allocator, char *_Nullable *value);
    void *_Nullable _slots_159_215[57];
    OrtStatusPtr (*SessionOptionsAppendExecutionProvider)(OrtSessionOptions *options, const char *provider_name, const char *_Nullable const *_Nullable provider_options_keys, const char *_Nullable const *_Nullable provider_options_values, size_t num_keys);
    void *_Nullable _slots_217_253[37];
    const char *(*GetBuildInfoString)(void);

} OrtApi;

typedef enum OrtCustomOpInputOutputCharacteristic {
    INPUT_OUTPUT_REQUIRED = 0,
    INPUT_OUTPUT_OPTIONAL = 1,
    INPUT_OUTPUT_VARIADIC = 2,
} OrtCustomOpInputOutputCharacteristic;

/// A custom operator's schema and kernel callbacks: every member ONNX Runtime 1.31 declares, in its
/// order (ONNX Runtime reads members by `version`, and some regardless of it). Members that a
/// version does not use are left NULL.
struct OrtCustomOp {
    uint32_t version;
    void *_Nullable (*CreateKernel)(const OrtCustomOp *op, const OrtApi *api, const OrtKernelInfo *info);
    const char *(*GetName)(const OrtCustomOp *op);
    const char *_Nullable (*GetExecutionProviderType)(const OrtCustomOp *op);
    ONNXTensorElementDataType (*GetInputType)(const OrtCustomOp *op, size_t index);
    size_t (*GetInputTypeCount)(const OrtCustomOp *op);
    ONNXTensorElementDataType (*GetOutputType)(const OrtCustomOp *op, size_t index);
    size_t (*GetOutputTypeCount)(const OrtCustomOp *op);
    void (*KernelCompute)(void *op_kernel, OrtKernelContext *context);
    void (*KernelDestroy)(void *op_kernel);
    OrtCustomOpInputOutputCharacteristic (*GetInputCharacteristic)(const OrtCustomOp *op, size_t index);
    OrtCustomOpInputOutputCharacteristic (*GetOutputCharacteristic)(const OrtCustomOp *op, size_t index);
    OrtMemType (*GetInputMemoryType)(const OrtCustomOp *op, size_t index);
    int (*GetVariadicInputMinArity)(const OrtCustomOp *op);
    int (*GetVariadicInputHomogeneity)(const OrtCustomOp *op);
    int (*GetVariadicOutputMinArity)(const OrtCustomOp *op);
    int (*GetVariadicOutputHomogeneity)(const OrtCustomOp *op);
    void *_Nullable CreateKernelV2;
    void *_Nullable KernelComputeV2;
    void *_Nullable InferOutputShapeFn;
    int (*GetStartVersion)(const OrtCustomOp *op);
    int (*GetEndVersion)(const OrtCustomOp *op);
    void *_Nullable GetMayInplace;
    void *_Nullable ReleaseMayInplace;
    void *_Nullable GetAliasMap;
    void *_Nullable ReleaseAliasMap;
};
_Static_assert(sizeof(struct OrtCustomOp) == 26 * sizeof(void *), "OrtCustomOp: a version word and 25 members");

typedef struct OrtApiBase {
    /// Returns NULL when the library does not offer `version`.
    const OrtApi *_Nullable (*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

/// The one exported symbol Warble looks up.
typedef const OrtApiBase *_Nullable (*OrtGetApiBaseFunction)(void);

#pragma clang assume_nonnull end
#pragma clang diagnostic pop

#define ORT_SLOT(name, index) \
    _Static_assert(offsetof(OrtApi, name) == (index) * sizeof(void *), #name " must be slot " #index)
ORT_SLOT(GetErrorCode, 1);
ORT_SLOT(GetErrorMessage, 2);
ORT_SLOT(CreateEnv, 3);
ORT_SLOT(CreateSession, 7);
ORT_SLOT(CreateSessionFromArray, 8);
ORT_SLOT(Run, 9);
ORT_SLOT(CreateSessionOptions, 10);
ORT_SLOT(SetOptimizedModelFilePath, 11);
ORT_SLOT(SetSessionExecutionMode, 13);
ORT_SLOT(EnableProfiling, 14);
ORT_SLOT(EnableMemPattern, 16);
ORT_SLOT(DisableMemPattern, 17);
ORT_SLOT(EnableCpuMemArena, 18);
ORT_SLOT(DisableCpuMemArena, 19);
ORT_SLOT(SetSessionLogSeverityLevel, 22);
ORT_SLOT(SetSessionGraphOptimizationLevel, 23);
ORT_SLOT(SetIntraOpNumThreads, 24);
ORT_SLOT(SetInterOpNumThreads, 25);
ORT_SLOT(CreateCustomOpDomain, 26);
ORT_SLOT(CustomOpDomain_Add, 27);
ORT_SLOT(AddCustomOpDomain, 28);
ORT_SLOT(SessionGetInputCount, 30);
ORT_SLOT(SessionGetOutputCount, 31);
ORT_SLOT(SessionGetInputTypeInfo, 33);
ORT_SLOT(SessionGetOutputTypeInfo, 34);
ORT_SLOT(SessionGetInputName, 36);
ORT_SLOT(SessionGetOutputName, 37);
ORT_SLOT(CreateRunOptions, 39);
ORT_SLOT(RunOptionsSetRunLogSeverityLevel, 41);
ORT_SLOT(RunOptionsSetTerminate, 46);
ORT_SLOT(RunOptionsUnsetTerminate, 47);
ORT_SLOT(CreateTensorAsOrtValue, 48);
ORT_SLOT(CreateTensorWithDataAsOrtValue, 49);
ORT_SLOT(IsTensor, 50);
ORT_SLOT(GetTensorMutableData, 51);
ORT_SLOT(CastTypeInfoToTensorInfo, 55);
ORT_SLOT(GetOnnxTypeFromTypeInfo, 56);
ORT_SLOT(GetTensorElementType, 60);
ORT_SLOT(GetDimensionsCount, 61);
ORT_SLOT(GetDimensions, 62);
ORT_SLOT(GetSymbolicDimensions, 63);
ORT_SLOT(GetTensorShapeElementCount, 64);
ORT_SLOT(GetTensorTypeAndShape, 65);
ORT_SLOT(GetValueType, 67);
ORT_SLOT(CreateCpuMemoryInfo, 69);
ORT_SLOT(AllocatorFree, 76);
ORT_SLOT(GetAllocatorWithDefaultOptions, 78);
ORT_SLOT(KernelContext_GetInput, 90);
ORT_SLOT(KernelContext_GetOutput, 91);
ORT_SLOT(ReleaseEnv, 92);
ORT_SLOT(ReleaseStatus, 93);
ORT_SLOT(ReleaseMemoryInfo, 94);
ORT_SLOT(ReleaseSession, 95);
ORT_SLOT(ReleaseValue, 96);
ORT_SLOT(ReleaseRunOptions, 97);
ORT_SLOT(ReleaseTypeInfo, 98);
ORT_SLOT(ReleaseTensorTypeAndShapeInfo, 99);
ORT_SLOT(ReleaseSessionOptions, 100);
ORT_SLOT(ReleaseCustomOpDomain, 101);
ORT_SLOT(SessionEndProfiling, 110);
ORT_SLOT(SessionGetModelMetadata, 111);
ORT_SLOT(ModelMetadataGetProducerName, 112);
ORT_SLOT(ModelMetadataGetGraphName, 113);
ORT_SLOT(ModelMetadataGetDomain, 114);
ORT_SLOT(ModelMetadataGetDescription, 115);
ORT_SLOT(ModelMetadataLookupCustomMetadataMap, 116);
ORT_SLOT(ModelMetadataGetVersion, 117);
ORT_SLOT(ReleaseModelMetadata, 118);
ORT_SLOT(CreateEnvWithGlobalThreadPools, 119);
ORT_SLOT(DisablePerSessionThreads, 120);
ORT_SLOT(CreateThreadingOptions, 121);
ORT_SLOT(ReleaseThreadingOptions, 122);
ORT_SLOT(ModelMetadataGetCustomMetadataMapKeys, 123);
ORT_SLOT(GetAvailableProviders, 125);
ORT_SLOT(ReleaseAvailableProviders, 126);
ORT_SLOT(AddSessionConfigEntry, 130);
ORT_SLOT(SetGlobalIntraOpNumThreads, 147);
ORT_SLOT(SetGlobalInterOpNumThreads, 148);
ORT_SLOT(SetGlobalSpinControl, 149);
ORT_SLOT(ModelMetadataGetGraphDescription, 158);
ORT_SLOT(SessionOptionsAppendExecutionProvider, 216);
ORT_SLOT(GetBuildInfoString, 254);
#undef ORT_SLOT

#ifdef __cplusplus
}
#endif


#endif // WARBLE_CONNXRUNTIME_H
