#ifndef ALARMCLOCK_CSHIM_H
#define ALARMCLOCK_CSHIM_H
/* Kernel interfaces whose macros or structs Swift cannot import directly.
 * One header per subsystem, each owned by the code that uses it. */
#include "cshim_event.h"
#include "cshim_input.h"
#include "cshim_random.h"
#include "cshim_time.h"
#include "cshim_process.h"
#endif
