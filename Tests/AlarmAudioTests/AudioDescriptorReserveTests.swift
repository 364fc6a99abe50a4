import Glibc
import Testing

@testable import AlarmAudio
@testable import AlarmPlatform

/// The ringer's spare descriptors without running out (that is `PlayDescriptorTests`,
/// in a child process): a failure with descriptors left is not retried and keeps them.
@Suite struct AudioDescriptorReserveTests {
  @Test func aFailureWithDescriptorsLeftIsNotRetried() throws {
    let reserve = try DescriptorReserve(count: 3)
    #expect(reserve.held == 3)
    #expect(!reserve.isExhausted())
    var calls = 0
    #expect(throws: SystemError("open(x)", errno: ENOENT)) {
      try reserve.retrying { () throws(SystemError) in
        calls += 1
        throw SystemError("open(x)", errno: ENOENT)
      }
    }
    #expect(calls == 1)
    #expect(reserve.held == 3)
    #expect(try reserve.retrying { () throws(SystemError) in 7 } == 7)
  }
}
