#ifndef CPIPESUPPORT_H
#define CPIPESUPPORT_H

typedef struct _Job *PipeJobRef;

#define PIPE_SWIFTCALL __attribute__((swiftcall))
#define PIPE_SWIFT_CONTEXT __attribute__((swift_context))
#include <stddef.h>

// MARK: tasks, observed (tasks.c)

/// What pipesh is told of the tasks the executable's code creates, cancels and ends. Every call
/// comes on the thread doing it, the runtime's task lock not held.
typedef struct {
  /// A task was created by `creator` (the current task, or NULL), with the runtime's create flags,
  /// in `group` (or NULL), cancelled already or not; `finalStep` is its context's final step.
  /// Returns whether to see its end (then `ended` gets that step back).
  int (*_Nonnull created)(
    void *_Nonnull task, void *_Nullable creator, size_t flags, void *_Nullable group, void *_Nonnull finalStep,
    int cancelled);
  /// A task whose end was asked for ends (returned or threw): returns its final step.
  void *_Nonnull (*_Nonnull ended)(void *_Nonnull context, void *_Nullable task, int threw);
  /// `Task.cancel()` on `task`, called while `current` ran (or NULL outside a task), from the
  /// cancellation handlers of `cancelling` when that is cancelled on this thread (or NULL).
  void (*_Nonnull cancelled)(void *_Nullable task, void *_Nullable current, void *_Nullable cancelling);
  /// A task group's `cancelAll()`, the same way.
  void (*_Nonnull groupCancelled)(void *_Nullable group, void *_Nullable current, void *_Nullable cancelling);
} PipeTaskHooks;

/// Sets the hooks, once, before any job starts (the pointer must stay valid).
void pipe_task_hooks_install(PipeTaskHooks *_Nonnull hooks);

/// Whether the runtime has `task` cancelled.
int pipe_task_is_cancelled(void *_Nonnull task);

/// The task running on this thread, or NULL.
void *_Nullable pipe_task_current(void);

typedef void (*pipe_enqueue_function)(PipeJobRef _Nonnull job, void *_Nullable argument);

/// While this thread is inside the runtime's task creation, keeps `job` to enqueue with
/// `enqueue(job, argument)` once the new task's end is observed; returns 1 then, else 0 (enqueue
/// it now).
int pipe_task_defer_enqueue(PipeJobRef _Nonnull job, pipe_enqueue_function _Nonnull enqueue, void *_Nullable argument);

/// What the next task this thread creates is, when it is not created by a task pipesh knows: a
/// job's own task (set around its creation, then cleared with NULL).
void pipe_task_set_pending_root(void *_Nullable root);
void *_Nullable pipe_task_pending_root(void);

/// Which code of pipesh's own creates tasks on this thread now (0: none; a `PipeshTask`); returns
/// the code before, to set back.
int pipe_task_set_made_by(int code);
int pipe_task_made_by(void);

#endif
