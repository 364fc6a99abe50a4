#ifndef ALARMCLOCK_CSHIM_INPUT_H
#define ALARMCLOCK_CSHIM_INPUT_H
/* GPIO character device (uAPI v2) and evdev: ioctl numbers and struct layouts.
 *
 * Swift cannot import the _IOC() macros, and the kernel structs import as
 * unwieldy 64-element tuples, so Swift builds and decodes these structs as
 * bytes using the sizes and offsets below. input.c checks every number here
 * against <linux/gpio.h> and <linux/input.h> with _Static_assert, so a
 * mismatch fails the build rather than corrupting an ioctl. */

#include <stddef.h>
#include <stdint.h>

/* ---- GPIO uAPI v2 (layout is the same on 32- and 64-bit by design) ---- */

#define CSHIM_GPIO_MAX_NAME_SIZE 32
#define CSHIM_GPIO_V2_LINES_MAX 64
#define CSHIM_GPIO_V2_LINE_NUM_ATTRS_MAX 10

/* struct gpiochip_info */
#define CSHIM_GPIOCHIP_INFO_SIZE 68
#define CSHIM_GPIOCHIP_INFO_NAME 0
#define CSHIM_GPIOCHIP_INFO_LABEL 32
#define CSHIM_GPIOCHIP_INFO_LINES 64

/* struct gpio_v2_line_attribute */
#define CSHIM_GPIO_V2_LINE_ATTRIBUTE_SIZE 16
#define CSHIM_GPIO_V2_LINE_ATTRIBUTE_ID 0
#define CSHIM_GPIO_V2_LINE_ATTRIBUTE_VALUE 8 /* flags / values / debounce_period_us */

/* struct gpio_v2_line_config_attribute */
#define CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_SIZE 24
#define CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_ATTR 0
#define CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_MASK 16

/* struct gpio_v2_line_config */
#define CSHIM_GPIO_V2_LINE_CONFIG_SIZE 272
#define CSHIM_GPIO_V2_LINE_CONFIG_FLAGS 0
#define CSHIM_GPIO_V2_LINE_CONFIG_NUM_ATTRS 8
#define CSHIM_GPIO_V2_LINE_CONFIG_ATTRS 32

/* struct gpio_v2_line_request */
#define CSHIM_GPIO_V2_LINE_REQUEST_SIZE 592
#define CSHIM_GPIO_V2_LINE_REQUEST_OFFSETS 0
#define CSHIM_GPIO_V2_LINE_REQUEST_CONSUMER 256
#define CSHIM_GPIO_V2_LINE_REQUEST_CONFIG 288
#define CSHIM_GPIO_V2_LINE_REQUEST_NUM_LINES 560
#define CSHIM_GPIO_V2_LINE_REQUEST_EVENT_BUFFER_SIZE 564
#define CSHIM_GPIO_V2_LINE_REQUEST_FD 588

/* struct gpio_v2_line_info */
#define CSHIM_GPIO_V2_LINE_INFO_SIZE 256
#define CSHIM_GPIO_V2_LINE_INFO_NAME 0
#define CSHIM_GPIO_V2_LINE_INFO_CONSUMER 32
#define CSHIM_GPIO_V2_LINE_INFO_OFFSET 64
#define CSHIM_GPIO_V2_LINE_INFO_NUM_ATTRS 68
#define CSHIM_GPIO_V2_LINE_INFO_FLAGS 72
#define CSHIM_GPIO_V2_LINE_INFO_ATTRS 80

/* struct gpio_v2_line_event */
#define CSHIM_GPIO_V2_LINE_EVENT_SIZE 48
#define CSHIM_GPIO_V2_LINE_EVENT_TIMESTAMP_NS 0
#define CSHIM_GPIO_V2_LINE_EVENT_ID 8
#define CSHIM_GPIO_V2_LINE_EVENT_OFFSET 12
#define CSHIM_GPIO_V2_LINE_EVENT_SEQNO 16
#define CSHIM_GPIO_V2_LINE_EVENT_LINE_SEQNO 20

/* struct gpio_v2_line_values (GPIO_V2_LINE_SET_VALUES_IOCTL): bit i = requested line i */
#define CSHIM_GPIO_V2_LINE_VALUES_SIZE 16
#define CSHIM_GPIO_V2_LINE_VALUES_BITS 0
#define CSHIM_GPIO_V2_LINE_VALUES_MASK 8

/* enum gpio_v2_line_flag */
#define CSHIM_GPIO_V2_LINE_FLAG_USED (1ULL << 0)
#define CSHIM_GPIO_V2_LINE_FLAG_ACTIVE_LOW (1ULL << 1)
#define CSHIM_GPIO_V2_LINE_FLAG_INPUT (1ULL << 2)
#define CSHIM_GPIO_V2_LINE_FLAG_OUTPUT (1ULL << 3)
#define CSHIM_GPIO_V2_LINE_FLAG_EDGE_RISING (1ULL << 4)
#define CSHIM_GPIO_V2_LINE_FLAG_EDGE_FALLING (1ULL << 5)
#define CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_UP (1ULL << 8)
#define CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN (1ULL << 9)
#define CSHIM_GPIO_V2_LINE_FLAG_BIAS_DISABLED (1ULL << 10)

/* enum gpio_v2_line_attr_id, enum gpio_v2_line_event_id */
#define CSHIM_GPIO_V2_LINE_ATTR_ID_FLAGS 1
#define CSHIM_GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES 2
#define CSHIM_GPIO_V2_LINE_ATTR_ID_DEBOUNCE 3
#define CSHIM_GPIO_V2_LINE_EVENT_RISING_EDGE 1
#define CSHIM_GPIO_V2_LINE_EVENT_FALLING_EDGE 2

unsigned long cshim_gpio_get_chipinfo_ioctl(void);
unsigned long cshim_gpio_v2_get_lineinfo_ioctl(void);
unsigned long cshim_gpio_v2_get_line_ioctl(void);
unsigned long cshim_gpio_v2_line_set_config_ioctl(void);
unsigned long cshim_gpio_v2_line_set_values_ioctl(void);

/* Fills a real struct gpio_v2_line_request (through the kernel header's
 * field names, not the offsets above) the way the service requests a button
 * line, and copies its bytes to `out` (CSHIM_GPIO_V2_LINE_REQUEST_SIZE bytes).
 * Tests compare it with the request Swift builds. `debounce_us` 0 = none. */
void cshim_gpio_reference_request(void *out, uint32_t offset, const char *consumer,
                                  uint64_t flags, uint32_t debounce_us,
                                  uint32_t event_buffer_size);

/* Fills a real struct gpio_v2_line_event through the header's field names. */
void cshim_gpio_reference_event(void *out, uint64_t timestamp_ns, uint32_t id,
                                uint32_t offset, uint32_t seqno, uint32_t line_seqno);

/* ---- evdev ---- */

/* struct input_event: `struct timeval` then type, code, value. The time
 * fields are `long`-sized: 24 bytes on 64-bit, 16 on 32-bit. */
#if defined(__LP64__)
#define CSHIM_INPUT_EVENT_SIZE 24
#define CSHIM_INPUT_EVENT_TIME_FIELD_SIZE 8
#define CSHIM_INPUT_EVENT_SEC 0
#define CSHIM_INPUT_EVENT_USEC 8
#define CSHIM_INPUT_EVENT_TYPE 16
#define CSHIM_INPUT_EVENT_CODE 18
#define CSHIM_INPUT_EVENT_VALUE 20
#else
#define CSHIM_INPUT_EVENT_SIZE 16
#define CSHIM_INPUT_EVENT_TIME_FIELD_SIZE 4
#define CSHIM_INPUT_EVENT_SEC 0
#define CSHIM_INPUT_EVENT_USEC 4
#define CSHIM_INPUT_EVENT_TYPE 8
#define CSHIM_INPUT_EVENT_CODE 10
#define CSHIM_INPUT_EVENT_VALUE 12
#endif

#define CSHIM_EV_SYN 0x00
#define CSHIM_EV_KEY 0x01
#define CSHIM_SYN_REPORT 0
#define CSHIM_SYN_DROPPED 3
#define CSHIM_KEY_MAX 0x2ff

unsigned long cshim_eviocgrab(void);
unsigned long cshim_eviocsclockid(void);
unsigned long cshim_eviocgname(unsigned int len);
unsigned long cshim_eviocgbit(unsigned int ev, unsigned int len);
unsigned long cshim_eviocgkey(unsigned int len);

/* Fills a real struct input_event through the header's field names. */
void cshim_input_reference_event(void *out, int64_t sec, int64_t usec, uint16_t type,
                                 uint16_t code, int32_t value);

/* ioctl(2) is variadic, which Swift cannot call: one wrapper per argument kind. */
int cshim_ioctl_ptr(int fd, unsigned long request, void *arg);
int cshim_ioctl_int(int fd, unsigned long request, int arg);

#endif
