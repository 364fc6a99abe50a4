#ifndef ALARMCLOCK_CSHIM_EVENT_H
#define ALARMCLOCK_CSHIM_EVENT_H
/* epoll: struct epoll_event is packed on x86_64 and not on other architectures;
 * Swift sees it only through these unpacked mirrors, so its layout never matters. */
#include <stdint.h>
/* Linux headers the Glibc module does not cover; their plain macros import as they are. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

/** One ready event: the epoll event bits and the caller's 64-bit token. */
typedef struct cshim_epoll_ready {
  uint32_t events;
  uint64_t token;
} cshim_epoll_ready;

/** epoll_ctl with the token stored in epoll_data.u64. Returns -1 and sets errno on failure. */
int cshim_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token);

/** epoll_wait into an unpacked array; at most 64 entries per call. */
int cshim_epoll_wait(int epfd, cshim_epoll_ready *out, int max, int timeout_ms);

/* Event bits, as plain integers (glibc declares them as an enum type). */
extern const uint32_t cshim_EPOLLIN;
extern const uint32_t cshim_EPOLLOUT;
extern const uint32_t cshim_EPOLLERR;
extern const uint32_t cshim_EPOLLHUP;
extern const uint32_t cshim_EPOLLRDHUP;

/** pipe2(2), which glibc declares only under _GNU_SOURCE. */
int cshim_pipe2(int fds[2], int flags);

/** accept4(2) without the peer address (glibc declares it only under _GNU_SOURCE). */
int cshim_accept4(int fd, int flags);

/** SO_SNDTIMEO. On aarch64 (the Raspberry Pi) <asm/socket.h> defines it as an expression
 *  over sizeof(time_t), which Swift cannot import. */
extern const int cshim_SO_SNDTIMEO;

#endif
