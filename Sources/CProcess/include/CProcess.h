#ifndef CPROCESS_H
#define CPROCESS_H

// What the pipesh process does with signals and its standard descriptors, in C: a signal handler
// may only make async-signal-safe calls, and the descriptors are checked before any Swift runs.
// Nothing here observes tasks (that is CPipeSupport).

/// Installs a handler for `signal` that writes its number, as one byte, to a pipe; returns the
/// pipe's read end (the same for every signal), or -1. A real handler, unlike a signal disposition
/// of "ignore", works whichever thread the kernel delivers the signal to.
int pipe_signal_pipe_install(int signal);

/// Whether standard descriptor 0, 1 or 2 was closed when pipesh started (it now holds /dev/null).
int pipe_standard_descriptor_was_closed(int descriptor);

#endif
