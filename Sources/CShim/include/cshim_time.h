#ifndef CSHIM_TIME_H
#define CSHIM_TIME_H

/// The kernel's NTP state (adjtimex(2) with no changes): 1 when the clock is
/// synchronised, 0 when adjtimex reports TIME_ERROR (not synchronised), -1 when
/// the call fails. glibc's struct timex has bit-fields Swift cannot import.
int cshim_clock_synchronized(void);

/// Sets the calling thread's timer slack (prctl(PR_SET_TIMERSLACK)) in nanoseconds;
/// returns 0 or -1 with errno set. prctl is variadic, which Swift cannot call.
int cshim_set_timer_slack(unsigned long nanoseconds);

/// The calling thread's timer slack in nanoseconds, or -1 with errno set.
long cshim_timer_slack(void);

#endif
