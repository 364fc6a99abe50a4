#ifndef ALARMCLOCK_CSHIM_INPUT_H
#define ALARMCLOCK_CSHIM_INPUT_H
/* GPIO character device (uAPI v2) and evdev: ioctl numbers and structs. */
#endif
