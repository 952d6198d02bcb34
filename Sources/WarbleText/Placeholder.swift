// Placeholder: replaced by the text layer.
public enum WarbleTextPlaceholder {}
