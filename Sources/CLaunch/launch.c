#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include "CLaunch.h"

int launch_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

int launch_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__)
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
  (void)actions;
  (void)from;
  return ENOSYS;
#endif
}
