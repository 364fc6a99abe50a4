import AlarmCore
import AlarmPlatform
import CShim
import Testing

@Suite struct GpioLineRequestTests {
  private func reference(
    offset: UInt32, consumer: String, flags: UInt64, debounceUs: UInt32, buffer: UInt32
  ) -> [UInt8] {
    var b = [UInt8](repeating: 0xEE, count: Int(CSHIM_GPIO_V2_LINE_REQUEST_SIZE))
    b.withUnsafeMutableBytes { raw in
      cshim_gpio_reference_request(raw.baseAddress, offset, consumer, flags, debounceUs, buffer)
    }
    return b
  }

  @Test func buttonRequestMatchesTheKernelHeaderLayout() {
    let options = GpioLineRequestOptions(
      consumer: "alarmclock", bias: .pullUp, activeLow: true, debounce: .milliseconds(10),
      eventBufferSize: 32)
    let flags =
      CSHIM_GPIO_V2_LINE_FLAG_INPUT | CSHIM_GPIO_V2_LINE_FLAG_EDGE_RISING
      | CSHIM_GPIO_V2_LINE_FLAG_EDGE_FALLING | CSHIM_GPIO_V2_LINE_FLAG_ACTIVE_LOW
      | CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_UP
    #expect(options.flags == flags)
    #expect(options.debounceMicroseconds == 10_000)
    let swift = options.requestBytes(offset: 17)
    #expect(swift.count == 592)
    #expect(
      swift
        == reference(
          offset: 17, consumer: "alarmclock", flags: flags, debounceUs: 10_000, buffer: 32))
  }

  @Test func everyBiasAndNoDebounce() {
    let cases: [(GPIOBias, UInt64)] = [
      (.pullUp, CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_UP),
      (.pullDown, CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN),
      (.disabled, CSHIM_GPIO_V2_LINE_FLAG_BIAS_DISABLED),
      (.asIs, 0),
    ]
    for (bias, biasFlag) in cases {
      let o = GpioLineRequestOptions(bias: bias, activeLow: false, debounce: .zero)
      let flags =
        CSHIM_GPIO_V2_LINE_FLAG_INPUT | CSHIM_GPIO_V2_LINE_FLAG_EDGE_RISING
        | CSHIM_GPIO_V2_LINE_FLAG_EDGE_FALLING | biasFlag
      #expect(
        o.requestBytes(offset: 3)
          == reference(offset: 3, consumer: "alarmclock", flags: flags, debounceUs: 0, buffer: 0))
    }
  }

  @Test func longConsumerIsTruncatedLikeStrncpy() {
    let long = String(repeating: "x", count: 40)
    let o = GpioLineRequestOptions(consumer: long, debounce: .microseconds(1500))
    #expect(o.debounceMicroseconds == 1500)
    #expect(
      o.requestBytes(offset: 0)
        == reference(offset: 0, consumer: long, flags: o.flags, debounceUs: 1500, buffer: 0))
  }

  @Test func debounceIsClampedNotTrapped() {
    #expect(GpioLineRequestOptions(debounce: .seconds(1_000_000)).debounceMicroseconds == .max)
    #expect(GpioLineRequestOptions(debounce: .seconds(-1)).debounceMicroseconds == 0)
    #expect(GpioLineRequestOptions(debounce: .nanoseconds(999)).debounceMicroseconds == 0)
  }

  @Test func ioctlNumbersAreTheKernels() {
    // _IOWR(0xB4, 0x07, struct gpio_v2_line_request): dir 3, size 592.
    #expect(cshim_gpio_v2_get_line_ioctl() == 0xC250_B407)
    #expect(cshim_gpio_get_chipinfo_ioctl() == 0x8044_B401)
    #expect(cshim_gpio_v2_get_lineinfo_ioctl() == 0xC100_B405)
  }
}
