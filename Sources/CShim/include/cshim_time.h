#ifndef CSHIM_TIME_H
#define CSHIM_TIME_H

/// The kernel's NTP state (adjtimex(2) with no changes): 1 when the clock is
/// synchronised, 0 when adjtimex reports TIME_ERROR (not synchronised), -1 when
/// the call fails. glibc's struct timex has bit-fields Swift cannot import.
int cshim_clock_synchronized(void);

#endif
