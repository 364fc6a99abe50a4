#ifndef ALARMCLOCK_CSHIM_PROCESS_H
#define ALARMCLOCK_CSHIM_PROCESS_H
/* Hook processes: the pieces of process control glibc hides from Swift. And malloc_trim(3)
 * and mallopt(3) from <malloc.h>, which Swift's Glibc module leaves out: the idle service
 * gives the heap's free pages back (IdlePages), a one-shot command sets its heap up for
 * speed (OneShotHeap). */
#include <malloc.h>
#include <spawn.h>
#include <sys/types.h>

/** pidfd_open(2) (Linux 5.3): a close-on-exec descriptor that becomes readable when the
 *  process `pid` exits. glibc 2.36 has no wrapper and Swift cannot call variadic syscall().
 *  Returns -1 and sets errno on failure (ENOSYS on kernels before 5.3). */
int cshim_pidfd_open(pid_t pid);

/** posix_spawn_file_actions_addclosefrom_np (glibc 2.34, declared only under _GNU_SOURCE):
 *  the child closes every descriptor >= `from` before exec. Returns 0 or an error number. */
int cshim_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
