#define _GNU_SOURCE
#include "CShim.h"

#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif

int cshim_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int cshim_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
