// Placeholder: replaced by the audio layer.
public enum WarbleAudioPlaceholder {}
