#include "cshim_time.h"

#include <sys/timex.h>

int cshim_clock_synchronized(void) {
  struct timex tx = {0};
  int state = adjtimex(&tx);
  if (state < 0) return -1;
  return state == TIME_ERROR ? 0 : 1;
}
