#ifndef ALARMCLOCK_CSNDFILE_H
#define ALARMCLOCK_CSNDFILE_H
#include <sndfile.h>
#endif
