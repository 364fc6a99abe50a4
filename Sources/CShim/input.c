#include "CShim.h"

#include <linux/gpio.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

/* Every layout number in cshim_input.h, checked against the kernel headers. */
#define CHECK_SIZE(type, value) _Static_assert(sizeof(type) == (value), #type " size")
#define CHECK_OFFSET(type, field, value) \
  _Static_assert(offsetof(type, field) == (value), #type "." #field " offset")

_Static_assert(GPIO_MAX_NAME_SIZE == CSHIM_GPIO_MAX_NAME_SIZE, "name size");
_Static_assert(GPIO_V2_LINES_MAX == CSHIM_GPIO_V2_LINES_MAX, "lines max");
_Static_assert(GPIO_V2_LINE_NUM_ATTRS_MAX == CSHIM_GPIO_V2_LINE_NUM_ATTRS_MAX, "attrs max");

CHECK_SIZE(struct gpiochip_info, CSHIM_GPIOCHIP_INFO_SIZE);
CHECK_OFFSET(struct gpiochip_info, name, CSHIM_GPIOCHIP_INFO_NAME);
CHECK_OFFSET(struct gpiochip_info, label, CSHIM_GPIOCHIP_INFO_LABEL);
CHECK_OFFSET(struct gpiochip_info, lines, CSHIM_GPIOCHIP_INFO_LINES);

CHECK_SIZE(struct gpio_v2_line_attribute, CSHIM_GPIO_V2_LINE_ATTRIBUTE_SIZE);
CHECK_OFFSET(struct gpio_v2_line_attribute, id, CSHIM_GPIO_V2_LINE_ATTRIBUTE_ID);
CHECK_OFFSET(struct gpio_v2_line_attribute, flags, CSHIM_GPIO_V2_LINE_ATTRIBUTE_VALUE);
CHECK_OFFSET(struct gpio_v2_line_attribute, debounce_period_us,
             CSHIM_GPIO_V2_LINE_ATTRIBUTE_VALUE);

CHECK_SIZE(struct gpio_v2_line_config_attribute, CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_SIZE);
CHECK_OFFSET(struct gpio_v2_line_config_attribute, attr, CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_ATTR);
CHECK_OFFSET(struct gpio_v2_line_config_attribute, mask, CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_MASK);

CHECK_SIZE(struct gpio_v2_line_config, CSHIM_GPIO_V2_LINE_CONFIG_SIZE);
CHECK_OFFSET(struct gpio_v2_line_config, flags, CSHIM_GPIO_V2_LINE_CONFIG_FLAGS);
CHECK_OFFSET(struct gpio_v2_line_config, num_attrs, CSHIM_GPIO_V2_LINE_CONFIG_NUM_ATTRS);
CHECK_OFFSET(struct gpio_v2_line_config, attrs, CSHIM_GPIO_V2_LINE_CONFIG_ATTRS);

CHECK_SIZE(struct gpio_v2_line_request, CSHIM_GPIO_V2_LINE_REQUEST_SIZE);
CHECK_OFFSET(struct gpio_v2_line_request, offsets, CSHIM_GPIO_V2_LINE_REQUEST_OFFSETS);
CHECK_OFFSET(struct gpio_v2_line_request, consumer, CSHIM_GPIO_V2_LINE_REQUEST_CONSUMER);
CHECK_OFFSET(struct gpio_v2_line_request, config, CSHIM_GPIO_V2_LINE_REQUEST_CONFIG);
CHECK_OFFSET(struct gpio_v2_line_request, num_lines, CSHIM_GPIO_V2_LINE_REQUEST_NUM_LINES);
CHECK_OFFSET(struct gpio_v2_line_request, event_buffer_size,
             CSHIM_GPIO_V2_LINE_REQUEST_EVENT_BUFFER_SIZE);
CHECK_OFFSET(struct gpio_v2_line_request, fd, CSHIM_GPIO_V2_LINE_REQUEST_FD);

CHECK_SIZE(struct gpio_v2_line_info, CSHIM_GPIO_V2_LINE_INFO_SIZE);
CHECK_OFFSET(struct gpio_v2_line_info, name, CSHIM_GPIO_V2_LINE_INFO_NAME);
CHECK_OFFSET(struct gpio_v2_line_info, consumer, CSHIM_GPIO_V2_LINE_INFO_CONSUMER);
CHECK_OFFSET(struct gpio_v2_line_info, offset, CSHIM_GPIO_V2_LINE_INFO_OFFSET);
CHECK_OFFSET(struct gpio_v2_line_info, num_attrs, CSHIM_GPIO_V2_LINE_INFO_NUM_ATTRS);
CHECK_OFFSET(struct gpio_v2_line_info, flags, CSHIM_GPIO_V2_LINE_INFO_FLAGS);
CHECK_OFFSET(struct gpio_v2_line_info, attrs, CSHIM_GPIO_V2_LINE_INFO_ATTRS);

CHECK_SIZE(struct gpio_v2_line_event, CSHIM_GPIO_V2_LINE_EVENT_SIZE);
CHECK_OFFSET(struct gpio_v2_line_event, timestamp_ns, CSHIM_GPIO_V2_LINE_EVENT_TIMESTAMP_NS);
CHECK_OFFSET(struct gpio_v2_line_event, id, CSHIM_GPIO_V2_LINE_EVENT_ID);
CHECK_OFFSET(struct gpio_v2_line_event, offset, CSHIM_GPIO_V2_LINE_EVENT_OFFSET);
CHECK_OFFSET(struct gpio_v2_line_event, seqno, CSHIM_GPIO_V2_LINE_EVENT_SEQNO);
CHECK_OFFSET(struct gpio_v2_line_event, line_seqno, CSHIM_GPIO_V2_LINE_EVENT_LINE_SEQNO);

_Static_assert(GPIO_V2_LINE_FLAG_USED == CSHIM_GPIO_V2_LINE_FLAG_USED, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_ACTIVE_LOW == CSHIM_GPIO_V2_LINE_FLAG_ACTIVE_LOW, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_INPUT == CSHIM_GPIO_V2_LINE_FLAG_INPUT, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_OUTPUT == CSHIM_GPIO_V2_LINE_FLAG_OUTPUT, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_EDGE_RISING == CSHIM_GPIO_V2_LINE_FLAG_EDGE_RISING, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_EDGE_FALLING == CSHIM_GPIO_V2_LINE_FLAG_EDGE_FALLING, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_BIAS_PULL_UP == CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_UP, "flag");
_Static_assert(GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN == CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN,
               "flag");
_Static_assert(GPIO_V2_LINE_FLAG_BIAS_DISABLED == CSHIM_GPIO_V2_LINE_FLAG_BIAS_DISABLED, "flag");
_Static_assert(GPIO_V2_LINE_ATTR_ID_FLAGS == CSHIM_GPIO_V2_LINE_ATTR_ID_FLAGS, "attr id");
_Static_assert(GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES == CSHIM_GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES,
               "attr id");
_Static_assert(GPIO_V2_LINE_ATTR_ID_DEBOUNCE == CSHIM_GPIO_V2_LINE_ATTR_ID_DEBOUNCE, "attr id");
_Static_assert(GPIO_V2_LINE_EVENT_RISING_EDGE == CSHIM_GPIO_V2_LINE_EVENT_RISING_EDGE, "edge");
_Static_assert(GPIO_V2_LINE_EVENT_FALLING_EDGE == CSHIM_GPIO_V2_LINE_EVENT_FALLING_EDGE, "edge");

CHECK_SIZE(struct input_event, CSHIM_INPUT_EVENT_SIZE);
CHECK_OFFSET(struct input_event, input_event_sec, CSHIM_INPUT_EVENT_SEC);
CHECK_OFFSET(struct input_event, input_event_usec, CSHIM_INPUT_EVENT_USEC);
CHECK_OFFSET(struct input_event, type, CSHIM_INPUT_EVENT_TYPE);
CHECK_OFFSET(struct input_event, code, CSHIM_INPUT_EVENT_CODE);
CHECK_OFFSET(struct input_event, value, CSHIM_INPUT_EVENT_VALUE);
_Static_assert(sizeof(((struct input_event *)0)->input_event_sec) ==
                   CSHIM_INPUT_EVENT_TIME_FIELD_SIZE,
               "input_event time field size");
#if defined(__LP64__)
_Static_assert(sizeof(struct input_event) == 24, "input_event is 24 bytes on 64-bit");
#endif
_Static_assert(EV_SYN == CSHIM_EV_SYN, "EV_SYN");
_Static_assert(EV_KEY == CSHIM_EV_KEY, "EV_KEY");
_Static_assert(SYN_REPORT == CSHIM_SYN_REPORT, "SYN_REPORT");
_Static_assert(SYN_DROPPED == CSHIM_SYN_DROPPED, "SYN_DROPPED");
CHECK_SIZE(struct gpio_v2_line_values, CSHIM_GPIO_V2_LINE_VALUES_SIZE);
CHECK_OFFSET(struct gpio_v2_line_values, bits, CSHIM_GPIO_V2_LINE_VALUES_BITS);
CHECK_OFFSET(struct gpio_v2_line_values, mask, CSHIM_GPIO_V2_LINE_VALUES_MASK);
_Static_assert(KEY_MAX == CSHIM_KEY_MAX, "KEY_MAX");

unsigned long cshim_gpio_get_chipinfo_ioctl(void) { return GPIO_GET_CHIPINFO_IOCTL; }
unsigned long cshim_gpio_v2_get_lineinfo_ioctl(void) { return GPIO_V2_GET_LINEINFO_IOCTL; }
unsigned long cshim_gpio_v2_get_line_ioctl(void) { return GPIO_V2_GET_LINE_IOCTL; }
unsigned long cshim_gpio_v2_line_set_config_ioctl(void) {
  return GPIO_V2_LINE_SET_CONFIG_IOCTL;
}
unsigned long cshim_gpio_v2_line_set_values_ioctl(void) {
  return GPIO_V2_LINE_SET_VALUES_IOCTL;
}

void cshim_gpio_reference_request(void *out, uint32_t offset, const char *consumer,
                                  uint64_t flags, uint32_t debounce_us,
                                  uint32_t event_buffer_size) {
  struct gpio_v2_line_request req;
  memset(&req, 0, sizeof req);
  req.offsets[0] = offset;
  strncpy(req.consumer, consumer, sizeof req.consumer - 1);
  req.config.flags = flags;
  if (debounce_us != 0) {
    req.config.num_attrs = 1;
    req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
    req.config.attrs[0].attr.debounce_period_us = debounce_us;
    req.config.attrs[0].mask = 1; /* bit 0: the first (only) requested line */
  }
  req.num_lines = 1;
  req.event_buffer_size = event_buffer_size;
  memcpy(out, &req, sizeof req);
}

void cshim_gpio_reference_event(void *out, uint64_t timestamp_ns, uint32_t id,
                                uint32_t offset, uint32_t seqno, uint32_t line_seqno) {
  struct gpio_v2_line_event ev;
  memset(&ev, 0, sizeof ev);
  ev.timestamp_ns = timestamp_ns;
  ev.id = id;
  ev.offset = offset;
  ev.seqno = seqno;
  ev.line_seqno = line_seqno;
  memcpy(out, &ev, sizeof ev);
}

unsigned long cshim_eviocgrab(void) { return EVIOCGRAB; }
unsigned long cshim_eviocsclockid(void) { return EVIOCSCLOCKID; }
unsigned long cshim_eviocgname(unsigned int len) { return EVIOCGNAME(len); }
unsigned long cshim_eviocgbit(unsigned int ev, unsigned int len) { return EVIOCGBIT(ev, len); }
unsigned long cshim_eviocgkey(unsigned int len) { return EVIOCGKEY(len); }

void cshim_input_reference_event(void *out, int64_t sec, int64_t usec, uint16_t type,
                                 uint16_t code, int32_t value) {
  struct input_event ev;
  memset(&ev, 0, sizeof ev);
  ev.input_event_sec = sec;
  ev.input_event_usec = usec;
  ev.type = type;
  ev.code = code;
  ev.value = value;
  memcpy(out, &ev, sizeof ev);
}

int cshim_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
int cshim_ioctl_int(int fd, unsigned long request, int arg) { return ioctl(fd, request, arg); }
