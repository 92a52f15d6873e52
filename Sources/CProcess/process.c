#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include "CProcess.h"

static int signal_pipe[2] = {-1, -1};

// Whether a handler of pipesh's own takes SIGINT (from the first `pipe_signal_pipe_install` for it).
// Before that, a Ctrl-C ends pipesh at once with status 130: nothing has run yet, and a Ctrl-C in
// the first milliseconds (or while a script named on the command line blocks in open(), a FIFO
// with no writer) must not be lost.
// An atomic (lock-free, so async-signal-safe): the handler may run on any thread.
static _Atomic int interrupt_handled = 0;

static void pipe_on_signal(int signal) {
  int saved = errno;
  if (signal == SIGINT && !atomic_load_explicit(&interrupt_handled, memory_order_acquire)) _exit(130);
  unsigned char byte = (unsigned char)signal;
  ssize_t ignored = write(signal_pipe[1], &byte, 1);
  (void)ignored;
  errno = saved;
}

int pipe_signal_pipe_install(int signal) {
  if (signal_pipe[0] < 0) {
    if (pipe(signal_pipe) != 0) return -1;
    for (int i = 0; i < 2; i++) fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
    fcntl(signal_pipe[1], F_SETFL, O_NONBLOCK);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = pipe_on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (sigaction(signal, &action, NULL) != 0) return -1;
  if (signal == SIGINT) atomic_store_explicit(&interrupt_handled, 1, memory_order_release);
  return signal_pipe[0];
}

// From the start, even when SIGINT was ignored by whoever started pipesh (`pipesh … &` in a
// script): a Ctrl-C ends it (`pipe_on_signal` above), until a handler of its own takes over.
__attribute__((constructor)) static void pipe_take_interrupt_from_the_start(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = pipe_on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, NULL);
}

// Standard descriptors closed when pipesh started (`pipesh >&-`), noted before anything else can
// open a file: the number is then held with /dev/null, so nothing opened later (the runtime's
// eventfd, a file `load` reads) takes it and gets output meant for it.
static int closed_standard[3];

__attribute__((constructor)) static void pipe_hold_closed_standard_descriptors(void) {
  for (int descriptor = 0; descriptor < 3; descriptor++) {
    if (fcntl(descriptor, F_GETFD) != -1 || errno != EBADF) continue;
    closed_standard[descriptor] = 1;
    // Close-on-exec: pipesh re-executing itself (for deterministic hashing) finds it closed again.
    int held = open("/dev/null", (descriptor == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
    if (held >= 0 && held != descriptor) {
      dup3(held, descriptor, O_CLOEXEC);
      close(held);
    }
  }
}

int pipe_standard_descriptor_was_closed(int descriptor) {
  return descriptor >= 0 && descriptor < 3 && closed_standard[descriptor];
}
