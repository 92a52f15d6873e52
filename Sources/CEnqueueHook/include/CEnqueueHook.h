#ifndef CENQUEUEHOOK_H
#define CENQUEUEHOOK_H

// Declarations only: the Swift runtime's hook for enqueueing a job on the global executor (the
// declaration swift-async-algorithms' AsyncSequenceValidation uses). The virtual clock's driver
// (VirtualTime) sets it so that the tasks a run starts with `Task { }` stay on the driver's thread.
// Nothing here defines or replaces any runtime function.

typedef struct _Job *EnqueueJobRef;

#define ENQUEUE_SWIFTCALL __attribute__((swiftcall))
#define ENQUEUE_NONISOLATED_UNSAFE __attribute__((swift_attr("nonisolated(unsafe)")))

typedef ENQUEUE_SWIFTCALL void (*swift_task_enqueueGlobal_original)(EnqueueJobRef _Nonnull job);
extern ENQUEUE_NONISOLATED_UNSAFE ENQUEUE_SWIFTCALL void (*_Nullable swift_task_enqueueGlobal_hook)(
  EnqueueJobRef _Nonnull job, swift_task_enqueueGlobal_original _Nonnull original);

/// What holds back a task's first enqueue while it is being created (pipesh's task book, which
/// must see the task before it runs): returns 1 when it keeps `job`, to enqueue later with
/// `enqueue(job, argument)`, else 0 (enqueue it now).
typedef void (*enqueue_function)(EnqueueJobRef _Nonnull job, void *_Nullable argument);
typedef int (*enqueue_hold_function)(
  EnqueueJobRef _Nonnull job, enqueue_function _Nonnull enqueue, void *_Nullable argument);

#endif
