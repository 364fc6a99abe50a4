#ifndef ALARMCLOCK_CSHIM_H
#define ALARMCLOCK_CSHIM_H
/* Kernel interfaces whose macros or structs Swift cannot import directly. */
#include <stdint.h>

/* Returns 1; proves the shim links. */
int cshim_version(void);

#endif
