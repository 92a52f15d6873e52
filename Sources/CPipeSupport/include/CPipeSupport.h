#ifndef CPIPESUPPORT_H
#define CPIPESUPPORT_H

// The Swift runtime's hook for enqueueing a job on the global executor (the same declaration
// swift-async-algorithms' AsyncSequenceValidation uses). pipesh's virtual clock sets it to keep
// every task of a virtual-time job on that job's own driver thread.
typedef struct _Job *PipeJobRef;

#define PIPE_SWIFTCALL __attribute__((swiftcall))
#define PIPE_NONISOLATED_UNSAFE __attribute__((swift_attr("nonisolated(unsafe)")))

typedef PIPE_SWIFTCALL void (*swift_task_enqueueGlobal_original)(PipeJobRef _Nonnull job);
extern PIPE_NONISOLATED_UNSAFE PIPE_SWIFTCALL void (*_Nullable swift_task_enqueueGlobal_hook)(
  PipeJobRef _Nonnull job, swift_task_enqueueGlobal_original _Nonnull original);

/// The virtual-time driver running on this thread, or NULL (a C thread-local).
void *_Nullable pipe_current_driver(void);
void pipe_set_current_driver(void *_Nullable driver);

/// Installs a handler for `signal` that writes its number, as one byte, to a pipe; returns the
/// pipe's read end (the same for every signal), or -1. A real handler, unlike a signal disposition
/// of "ignore", works whichever thread the kernel delivers the signal to.
int pipe_signal_pipe_install(int signal);

/// Whether standard descriptor 0, 1 or 2 was closed when pipesh started (it now holds /dev/null).
int pipe_standard_descriptor_was_closed(int descriptor);

#endif
