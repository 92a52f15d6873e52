#ifndef CLAUNCH_H
#define CLAUNCH_H

#include <spawn.h>

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 on; declared under _GNU_SOURCE only, which
/// Swift's Glibc module does not define): the child changes to `path` before the actions added after
/// this one. 0, or an error number.
int launch_file_actions_addchdir(posix_spawn_file_actions_t *_Nonnull actions, const char *_Nonnull path);

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 on): the child closes every descriptor
/// from `from` up. 0, or an error number (ENOSYS where the C library has none).
int launch_file_actions_addclosefrom(posix_spawn_file_actions_t *_Nonnull actions, int from);

#endif
