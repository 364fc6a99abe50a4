#ifndef ALARMCLOCK_CALSA_H
#define ALARMCLOCK_CALSA_H
#include <alsa/asoundlib.h>
#endif
