/* gpiotool: the VM tier's view of a GPIO chip through the uAPI v2 character device.
 *   gpiotool find LABEL LINENAME       prints "/dev/gpiochipN OFFSET USED [CONSUMER]"
 *   gpiotool watch CHIP OFFSET MS [DEBOUNCE_US]
 *                                      requests the line as input with both edges and prints
 *                                      "rising|falling TIMESTAMP_NS SEQNO" per event for MS ms
 * Built on the host at test time against /usr/include/linux/gpio.h, run inside the VM. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int die(const char *what) {
  fprintf(stderr, "gpiotool: %s: %s\n", what, strerror(errno));
  return 1;
}

static int find(const char *label, const char *line_name) {
  DIR *dir = opendir("/dev");
  if (!dir) return die("opendir /dev");
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
    char path[300];
    snprintf(path, sizeof path, "/dev/%s", entry->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct gpiochip_info chip = {0};
    if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &chip) == 0 && strcmp(chip.label, label) == 0) {
      for (unsigned offset = 0; offset < chip.lines; offset++) {
        struct gpio_v2_line_info info = {.offset = offset};
        if (ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &info) == 0 && strcmp(info.name, line_name) == 0) {
          printf("%s %u %d %s\n", path, offset, !!(info.flags & GPIO_V2_LINE_FLAG_USED),
                 info.consumer);
          close(fd);
          closedir(dir);
          return 0;
        }
      }
    }
    close(fd);
  }
  closedir(dir);
  fprintf(stderr, "gpiotool: no chip labelled %s with a line %s\n", label, line_name);
  return 1;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int watch(const char *chip_path, unsigned offset, int ms, unsigned debounce_us) {
  int chip = open(chip_path, O_RDONLY | O_CLOEXEC);
  if (chip < 0) return die(chip_path);
  struct gpio_v2_line_request req = {0};
  req.offsets[0] = offset;
  req.num_lines = 1;
  strcpy(req.consumer, "vm-gpiotool");
  req.config.flags =
      GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING;
  if (debounce_us) {
    req.config.num_attrs = 1;
    req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
    req.config.attrs[0].attr.debounce_period_us = debounce_us;
    req.config.attrs[0].mask = 1;
  }
  if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) < 0) return die("GPIO_V2_GET_LINE_IOCTL");
  printf("ready\n");
  fflush(stdout);
  long long end = now_ms() + ms;
  for (long long left; (left = end - now_ms()) > 0;) {
    struct pollfd pfd = {.fd = req.fd, .events = POLLIN};
    int n = poll(&pfd, 1, (int)left);
    if (n < 0 && errno != EINTR) return die("poll");
    if (n <= 0) continue;
    struct gpio_v2_line_event ev;
    if (read(req.fd, &ev, sizeof ev) != (ssize_t)sizeof ev) return die("read event");
    printf("%s %llu %u\n", ev.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? "rising" : "falling",
           (unsigned long long)ev.timestamp_ns, ev.seqno);
    fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "find") == 0) return find(argv[2], argv[3]);
  if ((argc == 5 || argc == 6) && strcmp(argv[1], "watch") == 0)
    return watch(argv[2], (unsigned)atoi(argv[3]), atoi(argv[4]),
                 argc == 6 ? (unsigned)atoi(argv[5]) : 0);
  fprintf(stderr, "usage: gpiotool find LABEL LINE | watch CHIP OFFSET MS [DEBOUNCE_US]\n");
  return 2;
}
