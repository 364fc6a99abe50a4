#include "cshim_time.h"

#include <sys/prctl.h>
#include <sys/timex.h>

int cshim_clock_synchronized(void) {
  struct timex tx = {0};
  int state = adjtimex(&tx);
  if (state < 0) return -1;
  return state == TIME_ERROR ? 0 : 1;
}

int cshim_set_timer_slack(unsigned long nanoseconds) {
  return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

long cshim_timer_slack(void) { return prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0); }
