import CShim
import Glibc
import Testing

/// The kernel structs the platform layer reads and writes, at the sizes the kernel ABI
/// fixes for a 64-bit target: x86_64 in `swift test`, aarch64 (the Raspberry Pi) in
/// scripts/test-arm64, where this bundle is built against the aarch64 headers. CShim's
/// input.c also checks the GPIO v2 and evdev numbers with `_Static_assert` there.
@Suite struct KernelLayoutTests {
  let long = MemoryLayout<Int>.size

  @Test func signalfdSiginfoIsTheKernels128Bytes() {
    #expect(MemoryLayout<signalfd_siginfo>.size == 128)
    #expect(MemoryLayout<signalfd_siginfo>.offset(of: \.ssi_signo) == 0)
    #expect(MemoryLayout<signalfd_siginfo>.offset(of: \.ssi_pid) == 12)
  }

  @Test func timerfdSpecIsTwoTimespecsOfLongs() {
    #expect(MemoryLayout<timespec>.size == 2 * long)
    #expect(MemoryLayout<itimerspec>.size == 4 * long)
    #expect(MemoryLayout<itimerspec>.offset(of: \.it_value) == 2 * long)
  }

  @Test func inputEventHasLongSizedTimeFields() {
    #expect(Int(CSHIM_INPUT_EVENT_TIME_FIELD_SIZE) == long)
    #expect(Int(CSHIM_INPUT_EVENT_SIZE) == 2 * long + 8)
    #expect(Int(CSHIM_INPUT_EVENT_TYPE) == 2 * long)
  }

  @Test func gpioV2StructsAreTheSameOnEveryArchitecture() {
    #expect(CSHIM_GPIO_V2_LINE_REQUEST_SIZE == 592)
    #expect(CSHIM_GPIO_V2_LINE_REQUEST_FD == 588)
    #expect(CSHIM_GPIO_V2_LINE_EVENT_SIZE == 48)
    #expect(CSHIM_GPIO_V2_LINE_EVENT_LINE_SEQNO == 20)
  }
}
