/* evtool: uinput keyboards and evdev probes for the VM tier.
 *   evtool kbd NAME     creates a uinput keyboard, prints its /dev/input/eventN, then reads
 *                       commands from stdin: "press KEY", "down KEY", "up KEY", "sleep MS";
 *                       EOF destroys the device (an unplug)
 *   evtool read DEV MS  prints "key CODE VALUE" for each EV_KEY event on DEV within MS ms
 *   evtool grabbed DEV  exit 0 if another process holds an EVIOCGRAB on DEV, 1 if not
 * KEY is a KEY_* name from a small table or a number. Built on the host against
 * /usr/include/linux/{input,uinput}.h, run inside the VM. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static const struct { const char *name; int code; } keys[] = {
    {"KEY_SPACE", KEY_SPACE}, {"KEY_ENTER", KEY_ENTER}, {"KEY_A", KEY_A},
    {"KEY_S", KEY_S},         {"KEY_X", KEY_X},         {"KEY_STOP", KEY_STOP},
    {"KEY_ESC", KEY_ESC},     {"KEY_PLAYPAUSE", KEY_PLAYPAUSE},
};

static int key_code(const char *name) {
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (strcmp(keys[i].name, name) == 0) return keys[i].code;
  return atoi(name);
}

static int die(const char *what) {
  fprintf(stderr, "evtool: %s: %s\n", what, strerror(errno));
  return 1;
}

static void emit(int fd, int type, int code, int value) {
  struct input_event ev = {.type = type, .code = code, .value = value};
  if (write(fd, &ev, sizeof ev) != (ssize_t)sizeof ev) perror("evtool: write");
}

static void key(int fd, int code, int value) {
  emit(fd, EV_KEY, code, value);
  emit(fd, EV_SYN, SYN_REPORT, 0);
}

static int kbd(const char *name) {
  int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return die("/dev/uinput");
  if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) return die("UI_SET_EVBIT");
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (ioctl(fd, UI_SET_KEYBIT, keys[i].code) < 0) return die("UI_SET_KEYBIT");
  struct uinput_setup setup = {.id = {.bustype = BUS_USB, .vendor = 0x1209, .product = 0x0001}};
  snprintf(setup.name, sizeof setup.name, "%s", name);
  if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return die("UI_DEV_SETUP");
  if (ioctl(fd, UI_DEV_CREATE) < 0) return die("UI_DEV_CREATE");
  char sysname[64] = {0};
  if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) return die("UI_GET_SYSNAME");
  /* The event node shows up under the input device's sysfs folder; devtmpfs makes the node. */
  char dev[300] = {0};
  char sysdir[128];
  snprintf(sysdir, sizeof sysdir, "/sys/devices/virtual/input/%s", sysname);
  for (int tries = 0; tries < 300 && !dev[0]; tries++) {
    DIR *dir = opendir(sysdir);
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
      if (strncmp(entry->d_name, "event", 5) == 0)
        snprintf(dev, sizeof dev, "/dev/input/%s", entry->d_name);
    if (dir) closedir(dir);
    if (dev[0] && access(dev, F_OK) != 0) dev[0] = 0;
    if (!dev[0]) usleep(10000);
  }
  if (!dev[0]) {
    fprintf(stderr, "evtool: no event node for %s\n", sysname);
    return 1;
  }
  printf("%s\n", dev);
  fflush(stdout);
  char line[128];
  while (fgets(line, sizeof line, stdin)) {
    char verb[32], arg[64];
    if (sscanf(line, "%31s %63s", verb, arg) != 2) continue;
    if (strcmp(verb, "press") == 0) {
      key(fd, key_code(arg), 1);
      key(fd, key_code(arg), 0);
    } else if (strcmp(verb, "down") == 0) {
      key(fd, key_code(arg), 1);
    } else if (strcmp(verb, "up") == 0) {
      key(fd, key_code(arg), 0);
    } else if (strcmp(verb, "sleep") == 0) {
      usleep((useconds_t)atoi(arg) * 1000);
    }
    printf("did %s %s\n", verb, arg);
    fflush(stdout);
  }
  ioctl(fd, UI_DEV_DESTROY);
  return 0;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int readev(const char *path, int ms) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return die(path);
  printf("ready\n");
  fflush(stdout);
  long long end = now_ms() + ms;
  for (long long left; (left = end - now_ms()) > 0;) {
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int n = poll(&pfd, 1, (int)left);
    if (n < 0 && errno != EINTR) return die("poll");
    if (n <= 0) continue;
    struct input_event ev;
    if (read(fd, &ev, sizeof ev) != (ssize_t)sizeof ev) return die("read");
    if (ev.type == EV_KEY) printf("key %d %d\n", ev.code, ev.value);
    fflush(stdout);
  }
  return 0;
}

static int grabbed(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return die(path);
  if (ioctl(fd, EVIOCGRAB, 1) == 0) {
    ioctl(fd, EVIOCGRAB, 0);
    printf("not grabbed\n");
    return 1;
  }
  if (errno == EBUSY) {
    printf("grabbed\n");
    return 0;
  }
  return die("EVIOCGRAB");
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "kbd") == 0) return kbd(argv[2]);
  if (argc == 4 && strcmp(argv[1], "read") == 0) return readev(argv[2], atoi(argv[3]));
  if (argc == 3 && strcmp(argv[1], "grabbed") == 0) return grabbed(argv[2]);
  fprintf(stderr, "usage: evtool kbd NAME | read DEV MS | grabbed DEV\n");
  return 2;
}
