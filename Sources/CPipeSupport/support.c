#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "CPipeSupport.h"

static __thread void *current_driver = 0;

void *pipe_current_driver(void) { return current_driver; }

void pipe_set_current_driver(void *driver) { current_driver = driver; }

static int signal_pipe[2] = {-1, -1};

static void pipe_on_signal(int signal) {
  int saved = errno;
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
  return signal_pipe[0];
}
