#ifndef ALARMCLOCK_CALSA_H
#define ALARMCLOCK_CALSA_H
#include <alsa/asoundlib.h>

/* alsa-lib prints its errors to stderr by default; the ringer reports them itself (typed,
 * with the device name), so it installs this silent handler. Swift cannot define a C
 * variadic function, hence the shim. */
static void calsa_silent_error(const char *file, int line, const char *function, int err,
                               const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_silent_error); }
#endif
