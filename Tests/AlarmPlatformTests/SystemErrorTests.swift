import AlarmPlatform
import Glibc
import Testing

@Suite struct SystemErrorTests {
  @Test func descriptionNamesCallAndErrno() {
    let error = SystemError("open(/etc/x)", errno: EACCES)
    #expect(error.description == "open(/etc/x): Permission denied (errno 13)")
    let capped = SystemError("read(/x)", errno: EFBIG, detail: "too big")
    #expect(capped.description == "read(/x): too big (errno 27)")
  }

  @Test func retriesEINTRThenReturns() throws {
    var calls = 0
    let result = try retryingEINTR("fake") { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 42
    }
    #expect(result == 42)
    #expect(calls == 3)
  }

  @Test func throwsOtherErrnoWithName() {
    var calls = 0
    #expect(throws: SystemError("fake(x)", errno: ENOENT)) {
      try retryingEINTR("fake(x)") { () -> Int in
        calls += 1
        errno = ENOENT
        return -1
      }
    }
    #expect(calls == 1)
  }

  @Test func realOpenFailureCarriesPath() {
    #expect(throws: SystemError("open(/nonexistent/dir/x)", errno: ENOENT)) {
      _ = try FileDescriptor.open("/nonexistent/dir/x", O_RDONLY)
    }
  }
}
