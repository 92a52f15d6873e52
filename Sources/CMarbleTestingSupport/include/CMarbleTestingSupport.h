#ifndef CMARBLETESTINGSUPPORT_H
#define CMARBLETESTINGSUPPORT_H

// Declarations only: the Swift runtime's hook for enqueueing a job on the global executor (the
// declaration swift-async-algorithms' AsyncSequenceValidation uses). MarbleTesting's driver sets it
// so that the tasks its runs start with `Task { }` stay on the driver's thread. Nothing here
// defines or replaces any runtime function.

typedef struct _Job *MarbleJobRef;

#define MARBLE_SWIFTCALL __attribute__((swiftcall))
#define MARBLE_NONISOLATED_UNSAFE __attribute__((swift_attr("nonisolated(unsafe)")))

typedef MARBLE_SWIFTCALL void (*marble_enqueueGlobal_original)(MarbleJobRef _Nonnull job);
extern MARBLE_NONISOLATED_UNSAFE MARBLE_SWIFTCALL void (*_Nullable swift_task_enqueueGlobal_hook)(
  MarbleJobRef _Nonnull job, marble_enqueueGlobal_original _Nonnull original);

#endif
