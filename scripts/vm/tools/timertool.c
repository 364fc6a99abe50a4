/* timertool: shows that a clock change reaches a CLOCK_REALTIME timerfd armed with
 * TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, the way the service sleeps.
 *   timertool wait-cancel SECONDS   arms a timer an hour ahead, prints "ready", then
 *                                   prints "canceled" and exits 0 when the clock is set,
 *                                   or exits 1 after SECONDS without that. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3 || strcmp(argv[1], "wait-cancel") != 0) {
    fprintf(stderr, "usage: timertool wait-cancel SECONDS\n");
    return 2;
  }
  int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
  if (fd < 0) return perror("timerfd_create"), 1;
  struct itimerspec spec = {0};
  clock_gettime(CLOCK_REALTIME, &spec.it_value);
  spec.it_value.tv_sec += 3600;
  if (timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL) < 0)
    return perror("timerfd_settime"), 1;
  printf("ready\n");
  fflush(stdout);
  struct pollfd pfd = {.fd = fd, .events = POLLIN};
  if (poll(&pfd, 1, atoi(argv[2]) * 1000) <= 0) {
    printf("no wake-up\n");
    return 1;
  }
  uint64_t expirations;
  if (read(fd, &expirations, sizeof expirations) < 0 && errno == ECANCELED) {
    printf("canceled\n");
    return 0;
  }
  printf("woke without ECANCELED\n");
  return 1;
}
