// pipesh sees every Swift task a job's code creates, cancels and ends, from the runtime itself.
//
// - Creation: the executable defines `swift_task_create`, the entry point the compiler calls for
//   every `Task { }`, `Task.detached`, `addTask` (pipesh's code and swift-async-algorithms', both
//   linked into it), and calls the runtime's own through `dlsym(RTLD_NEXT)`. A binary with the
//   runtime linked in (`Scripts/release`, `--static-swift-stdlib`) has no runtime after it to find:
//   built with `PIPE_WRAPPED_RUNTIME`, these are `__wrap_NAME`, which the linker's `--wrap=NAME`
//   sends every call to, and the runtime's own is `__real_NAME`.
// - End: a task's initial context holds the runtime's final step ("resume parent"), which runs
//   when the task's body returns or throws. pipesh puts its own step there, which notes the end
//   and tail-calls the runtime's. The task cannot start before that: its first enqueue, made inside
//   the runtime's create, is held back (`pipe_task_defer_enqueue`) until the step is in place.
// - Cancellation: `Task.cancel()` and the task groups' `cancelAll()`, called from the executable,
//   are defined here too and forwarded. Cancellation the runtime passes on by itself (a cancelled
//   task's child tasks) has no call to see: the views infer it from the runtime's rule and say so.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "CPipeSupport.h"

typedef struct {
  void *task;
  void *context;
} PipeTaskAndContext;

typedef PIPE_SWIFTCALL PipeTaskAndContext (*pipe_create_function)(size_t, void *, const void *, void *, void *);
typedef PIPE_SWIFTCALL void (*pipe_forwarded_method)(void *, void *, void *, void *, void *, void *PIPE_SWIFT_CONTEXT);
typedef __attribute__((swiftasynccall)) void (*pipe_final_step)(
  void *__attribute__((swift_async_context)) context, void *PIPE_SWIFT_CONTEXT error);

extern PIPE_SWIFTCALL void *swift_task_getCurrent(void);
extern PIPE_SWIFTCALL _Bool swift_task_isCancelled(void *task);

static _Atomic(PipeTaskHooks *) installed_hooks = NULL;

void pipe_task_hooks_install(PipeTaskHooks *hooks) { atomic_store(&installed_hooks, hooks); }

int pipe_task_is_cancelled(void *task) { return swift_task_isCancelled(task); }

void *pipe_task_current(void) { return swift_task_getCurrent(); }

#ifdef PIPE_WRAPPED_RUNTIME
// The name the executable defines, and the runtime's own, under the linker's --wrap.
#define PIPE_ENTRY(name) __wrap_##name
#define PIPE_REAL(name) __real_##name
extern PIPE_SWIFTCALL PipeTaskAndContext __real_swift_task_create(size_t, void *, const void *, void *, void *);
static pipe_create_function runtime_create = __real_swift_task_create;
#else
#define PIPE_ENTRY(name) name
static void *runtime_function(const char *name) {
  void *function = dlsym(RTLD_NEXT, name);
  if (!function) abort();
  return function;
}

// The runtime's own functions, looked up once before main (and before any thread): every call
// forwards to them.
static pipe_create_function runtime_create;
#endif

// MARK: enqueues held back while a task is being created

enum { pipe_deferred_capacity = 4 };

static __thread int creating = 0;
static __thread int deferred_count = 0;
static __thread struct {
  PipeJobRef job;
  pipe_enqueue_function enqueue;
  void *argument;
} deferred[pipe_deferred_capacity];

int pipe_task_defer_enqueue(PipeJobRef job, pipe_enqueue_function enqueue, void *argument) {
  if (!creating || deferred_count == pipe_deferred_capacity) return 0;
  deferred[deferred_count].job = job;
  deferred[deferred_count].enqueue = enqueue;
  deferred[deferred_count].argument = argument;
  deferred_count += 1;
  return 1;
}

// MARK: the task's final step

static __attribute__((swiftasynccall)) void pipe_task_final_step(
  void *__attribute__((swift_async_context)) context, void *PIPE_SWIFT_CONTEXT error) {
  PipeTaskHooks *hooks = atomic_load(&installed_hooks);
  pipe_final_step original = (pipe_final_step)hooks->ended(context, swift_task_getCurrent(), error != NULL);
  __attribute__((musttail)) return original(context, error);
}

// MARK: creation

// The runtime's task option record for a task group (TaskOptionRecordKind::TaskGroup).
typedef struct PipeTaskOption {
  size_t flags;
  struct PipeTaskOption *parent;
  void *group;
} PipeTaskOption;

static void *group_of(PipeTaskOption *options) {
  for (PipeTaskOption *option = options; option; option = option->parent)
    if ((option->flags & 0xff) == 1) return option->group;
  return NULL;
}

PIPE_SWIFTCALL PipeTaskAndContext PIPE_ENTRY(swift_task_create)(
  size_t flags, void *options, const void *resultType, void *entry, void *closure) {
  pipe_create_function runtime = runtime_create;
  PipeTaskHooks *hooks = atomic_load(&installed_hooks);
  if (!hooks) return runtime(flags, options, resultType, entry, closure);
  void *creator = swift_task_getCurrent();
  creating += 1;
  PipeTaskAndContext created = runtime(flags, options, resultType, entry, closure);
  creating -= 1;
  // The initial context: { parent context, resume parent }; the second is the task's final step.
  void **context = (void **)created.context;
  if (hooks->created(created.task, creator, flags, group_of(options), context[1], swift_task_isCancelled(created.task)))
    context[1] = (void *)pipe_task_final_step;
  if (!creating) {
    int count = deferred_count;
    deferred_count = 0;
    for (int index = 0; index < count; index++) deferred[index].enqueue(deferred[index].job, deferred[index].argument);
  }
  return created;
}

// MARK: cancellation

// The task being cancelled on this thread, while its cancellation handlers run (they may cancel
// tasks of their own: an operator's task when its consumer's is cancelled).
static __thread void *cancelling = NULL;

// The task or the group is the first argument (then the generic parameters' metadata and
// witness tables, passed on as they came).
#ifdef PIPE_WRAPPED_RUNTIME
#define PIPE_RUNTIME_METHOD(mangled)                                                                     \
  extern PIPE_SWIFTCALL void __real_##mangled(void *, void *, void *, void *, void *, void *PIPE_SWIFT_CONTEXT); \
  static pipe_forwarded_method runtime_##mangled = __real_##mangled;
#else
#define PIPE_RUNTIME_METHOD(mangled) static pipe_forwarded_method runtime_##mangled;
#endif
#define PIPE_FORWARD(mangled, call)                                                                          \
  PIPE_RUNTIME_METHOD(mangled)                                                                               \
  PIPE_SWIFTCALL void PIPE_ENTRY(mangled)(void *self, void *b, void *c, void *d, void *e, void *PIPE_SWIFT_CONTEXT context) { \
    PipeTaskHooks *hooks = atomic_load(&installed_hooks);                                                    \
    if (hooks) hooks->call(self, swift_task_getCurrent(), cancelling);                                       \
    void *outer = cancelling;                                                                                \
    cancelling = self;                                                                                       \
    runtime_##mangled(self, b, c, d, e, context);                                                            \
    cancelling = outer;                                                                                      \
  }

// Task.cancel(), UnsafeCurrentTask.cancel()
PIPE_FORWARD($sScT6cancelyyF, cancelled)
PIPE_FORWARD($sSct6cancelyyF, cancelled)
// TaskGroup, ThrowingTaskGroup, DiscardingTaskGroup, ThrowingDiscardingTaskGroup: cancelAll()
PIPE_FORWARD($sScG9cancelAllyyF, groupCancelled)
PIPE_FORWARD($sScg9cancelAllyyF, groupCancelled)
PIPE_FORWARD($ss19DiscardingTaskGroupV9cancelAllyyF, groupCancelled)
PIPE_FORWARD($ss27ThrowingDiscardingTaskGroupV9cancelAllyyF, groupCancelled)

#ifndef PIPE_WRAPPED_RUNTIME
__attribute__((constructor)) static void pipe_find_the_runtime(void) {
  runtime_create = (pipe_create_function)runtime_function("swift_task_create");
#define PIPE_FIND(mangled) runtime_##mangled = (pipe_forwarded_method)runtime_function(#mangled)
  PIPE_FIND($sScT6cancelyyF);
  PIPE_FIND($sSct6cancelyyF);
  PIPE_FIND($sScG9cancelAllyyF);
  PIPE_FIND($sScg9cancelAllyyF);
  PIPE_FIND($ss19DiscardingTaskGroupV9cancelAllyyF);
  PIPE_FIND($ss27ThrowingDiscardingTaskGroupV9cancelAllyyF);
#undef PIPE_FIND
}
#endif

// MARK: a job's own task

static __thread void *pending_root = NULL;

void pipe_task_set_pending_root(void *root) { pending_root = root; }

void *pipe_task_pending_root(void) { return pending_root; }

static __thread int made_by = 0;

int pipe_task_set_made_by(int code) {
  int before = made_by;
  made_by = code;
  return before;
}

int pipe_task_made_by(void) { return made_by; }
