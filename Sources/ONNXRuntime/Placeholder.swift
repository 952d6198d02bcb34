// Placeholder
public enum ONNXRuntimePlaceholder {}
