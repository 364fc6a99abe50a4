#ifndef ALARMCLOCK_CSHIM_EVENT_H
#define ALARMCLOCK_CSHIM_EVENT_H
/* epoll, timerfd, signalfd, inotify, sockets: macros Swift cannot import. */
#endif
