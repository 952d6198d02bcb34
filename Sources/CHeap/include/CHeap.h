#ifndef WARBLE_CHEAP_H
#define WARBLE_CHEAP_H

/// Gives the C library's free heap memory back to the operating system (glibc's malloc_trim).
/// Returns 1 when memory was released, 0 when there was none or the C library cannot do it.
int warble_heap_release_free_memory(void);

#endif
