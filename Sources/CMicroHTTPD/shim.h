#ifndef ALARMCLOCK_CMICROHTTPD_H
#define ALARMCLOCK_CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The limits and callbacks of one daemon (Swift cannot call MHD_start_daemon: it is
/// variadic, and the option values are function pointers cast to intptr_t).
struct cmhd_config {
  unsigned int flags;
  unsigned int connection_limit;
  unsigned int connection_timeout;
  size_t connection_memory_limit;
  MHD_AccessHandlerCallback handler;
  MHD_RequestCompletedCallback completed;
  MHD_NotifyConnectionCallback notify_connection;
  void *context;
};

/// Starts a daemon without a listening socket of its own (MHD_USE_NO_LISTEN_SOCKET is in
/// `flags`): the caller accepts and hands connections over with MHD_add_connection.
static inline struct MHD_Daemon *cmhd_start(const struct cmhd_config *c) {
  return MHD_start_daemon(
      c->flags, 0, NULL, NULL, c->handler, c->context,
      MHD_OPTION_CONNECTION_LIMIT, c->connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, c->connection_timeout,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, c->connection_memory_limit,
      MHD_OPTION_NOTIFY_COMPLETED, c->completed, c->context,
      MHD_OPTION_NOTIFY_CONNECTION, c->notify_connection, c->context,
      MHD_OPTION_END);
}

/// A connection's socket (MHD_get_connection_info is variadic), or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

/// The daemon's epoll descriptor (external-loop mode with MHD_USE_EPOLL), or -1.
static inline int cmhd_epoll_fd(struct MHD_Daemon *d) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
  return info == NULL ? -1 : info->epoll_fd;
}

#endif
