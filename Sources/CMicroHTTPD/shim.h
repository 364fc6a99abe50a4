#ifndef ALARMCLOCK_CMICROHTTPD_H
#define ALARMCLOCK_CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
// getrandom(2) for the web token (the Glibc module leaves sys/random.h out).
#include <sys/random.h>
#include <microhttpd.h>

/// The limits and callbacks of one daemon (Swift cannot call MHD_start_daemon: it is
/// variadic, and the option values are function pointers cast to intptr_t).
struct cmhd_config {
  unsigned int flags;
  int listen_fd;
  unsigned int connection_limit;
  unsigned int connection_timeout;
  size_t connection_memory_limit;
  MHD_AccessHandlerCallback handler;
  MHD_RequestCompletedCallback completed;
  void *context;
};

/// Starts a daemon on an already listening socket (which it then owns).
static inline struct MHD_Daemon *cmhd_start(const struct cmhd_config *c) {
  return MHD_start_daemon(
      c->flags, 0, NULL, NULL, c->handler, c->context,
      MHD_OPTION_LISTEN_SOCKET, (MHD_socket)c->listen_fd,
      MHD_OPTION_CONNECTION_LIMIT, c->connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, c->connection_timeout,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, c->connection_memory_limit,
      MHD_OPTION_NOTIFY_COMPLETED, c->completed, c->context,
      MHD_OPTION_END);
}

/// The daemon's epoll descriptor (external-loop mode with MHD_USE_EPOLL), or -1.
static inline int cmhd_epoll_fd(struct MHD_Daemon *d) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
  return info == NULL ? -1 : info->epoll_fd;
}

#endif
