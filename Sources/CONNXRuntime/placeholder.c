int connxruntime_placeholder(void) { return 0; }
