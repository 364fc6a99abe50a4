#define _GNU_SOURCE
#include "CShim.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <errno.h>
#include <sys/epoll.h>

const int cshim_SO_SNDTIMEO = SO_SNDTIMEO;
const uint32_t cshim_EPOLLIN = EPOLLIN;
const uint32_t cshim_EPOLLOUT = EPOLLOUT;
const uint32_t cshim_EPOLLERR = EPOLLERR;
const uint32_t cshim_EPOLLHUP = EPOLLHUP;
const uint32_t cshim_EPOLLRDHUP = EPOLLRDHUP;

int cshim_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
  struct epoll_event ev = {0};
  ev.events = events;
  ev.data.u64 = token;
  return epoll_ctl(epfd, op, fd, &ev);
}

int cshim_epoll_wait(int epfd, cshim_epoll_ready *out, int max, int timeout_ms) {
  struct epoll_event evs[64];
  if (max > 64) max = 64;
  if (max < 1) max = 1;
  int n = epoll_wait(epfd, evs, max, timeout_ms);
  for (int i = 0; i < n; i++) {
    out[i].events = evs[i].events;
    out[i].token = evs[i].data.u64;
  }
  return n;
}

int cshim_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int cshim_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }
