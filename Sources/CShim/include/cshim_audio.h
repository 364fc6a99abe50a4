#ifndef ALARMCLOCK_CSHIM_AUDIO_H
#define ALARMCLOCK_CSHIM_AUDIO_H
/* The audio playback thread waits on an eventfd (stop/commands) and a timerfd (the
 * ring deadline) beside the PCM's poll descriptors; Glibc's Swift module lacks both. */
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <alsa/asoundlib.h>

/* alsa-lib prints its errors to stderr by default; the ringer reports them itself (typed,
 * with the device name), so it installs this silent handler. Swift cannot define a C
 * variadic function, hence the shim. */
static void cshim_alsa_silent_error(const char *file, int line, const char *function,
                                    int err, const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void cshim_alsa_silence_errors(void) {
  snd_lib_error_set_handler(cshim_alsa_silent_error);
}
#endif
