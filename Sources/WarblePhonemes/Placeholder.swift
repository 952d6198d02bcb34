import WarbleText
// Placeholder: replaced by the phonemizer.
public enum WarblePhonemesPlaceholder {}
