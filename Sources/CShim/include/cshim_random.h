#ifndef ALARMCLOCK_CSHIM_RANDOM_H
#define ALARMCLOCK_CSHIM_RANDOM_H
/* getrandom(2), for the web's login token: Glibc's Swift module leaves sys/random.h out. */
#include <sys/random.h>
#endif
