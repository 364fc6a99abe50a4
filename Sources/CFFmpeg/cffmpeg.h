#ifndef ALARMCLOCK_CFFMPEG_H
#define ALARMCLOCK_CFFMPEG_H
/* FFmpeg's libraries for the stream helper (alarmclock-stream), and the few things Swift
 * cannot import from them: function-like macros (AVERROR, the FFERRTAG error codes,
 * AV_NOPTS_VALUE) and variadic calls (prctl). Only APIs present in both FFmpeg 5.1
 * (Debian 12: libavcodec 59) and 7.1 (Debian 13: libavcodec 61) are used: AVChannelLayout
 * and ch_layout, swr_alloc_set_opts2, avcodec_send_packet/avcodec_receive_frame. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>

#include <errno.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/** AVERROR(e): FFmpeg's error code for the POSIX error number `e`. */
static inline int cff_averror(int e) { return AVERROR(e); }
/** AVERROR_EOF: the end of the input. */
static inline int cff_averror_eof(void) { return AVERROR_EOF; }
/** AVERROR_EXIT: the interrupt callback asked to stop. */
static inline int cff_averror_exit(void) { return AVERROR_EXIT; }
/** AVERROR_INVALIDDATA: bytes a demuxer or decoder could not make sense of. */
static inline int cff_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/** AVERROR_DECODER_NOT_FOUND: no decoder for the stream's codec in this build. */
static inline int cff_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/** AVERROR_STREAM_NOT_FOUND: av_find_best_stream found no audio stream. */
static inline int cff_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/** AVERROR_PROTOCOL_NOT_FOUND: a protocol not built in, or not on the whitelist. */
static inline int cff_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
/** The HTTP status errors of libavformat's http protocol. */
static inline int cff_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int cff_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int cff_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int cff_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int cff_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int cff_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }

/** AV_NOPTS_VALUE: an unknown time stamp or duration. */
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }

/** prctl(PR_SET_NO_NEW_PRIVS, 1): no exec of this process or its children gains
 *  privileges (setuid, file capabilities). Returns 0, or -1 with errno set. */
static inline int cff_set_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

/** close_range(first, ~0U, 0) (Linux 5.9) through syscall(2), which Swift cannot call:
 *  closes every descriptor from `first` on. Returns 0, or -1 with errno set (ENOSYS on
 *  older kernels: the caller falls back to closing one by one). */
static inline int cff_close_from(unsigned int first) {
#ifdef SYS_close_range
  return (int)syscall(SYS_close_range, first, ~0U, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

/** A resampler from `frame`'s format, rate and channel layout to interleaved S16 at
 *  `out_rate` with `out_channels` (FFmpeg's default layout for that count: mono or
 *  stereo; more channels are downmixed, mono is copied to both sides). A layout of
 *  unspecified order counts as the default layout of its channel count. Replaces `*ps`
 *  (freeing the old one); returns 0 or a negative AVERROR. Written in C because
 *  swr_alloc_set_opts2's pointer parameters became const between FFmpeg 5.1 and 7.1. */
static inline int cff_swr_open(SwrContext **ps, int out_channels, int out_rate,
                               const AVFrame *frame) {
  AVChannelLayout out_layout, in_layout;
  int ret;
  av_channel_layout_default(&out_layout, out_channels);
  if (frame->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame->ch_layout.nb_channels == 0) {
    av_channel_layout_default(&in_layout, frame->ch_layout.nb_channels > 0
                                              ? frame->ch_layout.nb_channels : 1);
  } else {
    ret = av_channel_layout_copy(&in_layout, &frame->ch_layout);
    if (ret < 0) return ret;
  }
  swr_free(ps);
  ret = swr_alloc_set_opts2(ps, &out_layout, AV_SAMPLE_FMT_S16, out_rate, &in_layout,
                            (enum AVSampleFormat)frame->format, frame->sample_rate, 0, NULL);
  av_channel_layout_uninit(&in_layout);
  av_channel_layout_uninit(&out_layout);
  if (ret < 0) return ret;
  ret = swr_init(*ps);
  if (ret < 0) swr_free(ps);
  return ret;
}

/** Copies `frame`'s format, rate and channel layout (not its samples) to `reference`;
 *  returns 0 or a negative AVERROR. */
static inline int cff_frame_copy_input(AVFrame *reference, const AVFrame *frame) {
  reference->format = frame->format;
  reference->sample_rate = frame->sample_rate;
  av_channel_layout_uninit(&reference->ch_layout);
  return av_channel_layout_copy(&reference->ch_layout, &frame->ch_layout);
}

/** Whether `frame` has the format, rate and layout `reference` had (the resampler made for
 *  one converts the other). */
static inline int cff_frame_same_input(const AVFrame *frame, const AVFrame *reference) {
  return frame->format == reference->format && frame->sample_rate == reference->sample_rate &&
         av_channel_layout_compare(&frame->ch_layout, &reference->ch_layout) == 0;
}

/** swr_convert of `frame` (NULL: flush what the resampler holds) into `out`, interleaved
 *  S16 with room for `out_frames` frames. Returns the frames written or a negative AVERROR.
 *  (swr_convert's parameter types differ between FFmpeg 5.1 and 7.1.) */
static inline int cff_swr_convert(SwrContext *s, int16_t *out, int out_frames,
                                  const AVFrame *frame) {
  uint8_t *planes[1] = {(uint8_t *)out};
  if (!frame) return swr_convert(s, planes, out_frames, NULL, 0);
  return swr_convert(s, planes, out_frames, (const uint8_t **)frame->extended_data,
                     frame->nb_samples);
}

/** The AVIOContext's AVOption `name` (searching its protocol's options too: mime_type,
 *  location, icy_metadata_headers, icy_metadata_packet), or NULL; free with av_free. */
static inline char *cff_io_option(AVIOContext *pb, const char *name) {
  uint8_t *value = NULL;
  if (!pb || av_opt_get(pb, name, AV_OPT_SEARCH_CHILDREN, &value) < 0) return NULL;
  return (char *)value;
}

/** Where FFmpeg's log lines go: `level`, the line's format string (compared, not printed)
 *  and the formatted line (NULL for lines less severe than warnings: not formatted). */
typedef void (*cff_log_sink)(int level, const char *format, const char *line);

/* The installed sink, in a function-local static: one variable per object file that
 * uses these functions (Swift emits a header's inline functions, not its variables). Only
 * FFmpegLog.swift calls them, so its object holds the one copy. Swift cannot write the
 * callback itself: it takes a va_list. */
static inline cff_log_sink *cff_log_sink_slot(void) {
  static cff_log_sink sink;
  return &sink;
}

/** The av_log callback: lines up to the level set with av_log_set_level go to the sink
 *  (av_log hands every line to the callback, whatever the level); only warnings and
 *  errors are formatted. */
static inline void cff_log_callback(void *avcl, int level, const char *format, va_list args) {
  char line[1024];
  int prefix = 0;
  cff_log_sink sink = *cff_log_sink_slot();
  if (!sink || !format || level > av_log_get_level()) return;
  if (level > AV_LOG_WARNING) {
    sink(level, format, NULL);
    return;
  }
  av_log_format_line2(avcl, level, format, args, line, (int)sizeof line, &prefix);
  sink(level, format, line);
}

/** Sends FFmpeg's log to `sink` instead of stderr. */
static inline void cff_log_install(cff_log_sink sink) {
  *cff_log_sink_slot() = sink;
  av_log_set_callback(cff_log_callback);
}

#endif
