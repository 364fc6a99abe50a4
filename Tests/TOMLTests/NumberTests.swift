import Testing

@testable import TOML

@Suite struct NumberTests {
  @Test func decimalIntegers() {
    #expect(value("+99") == .integer(99))
    #expect(value("42") == .integer(42))
    #expect(value("0") == .integer(0))
    #expect(value("-17") == .integer(-17))
    #expect(value("+0") == .integer(0))
    #expect(value("-0") == .integer(0))
    #expect(value("1_000") == .integer(1000))
    #expect(value("5_349_221") == .integer(5_349_221))
    #expect(value("53_49_221") == .integer(5_349_221))
    #expect(value("1_2_3_4_5") == .integer(12345))
    #expect(value("9223372036854775807") == .integer(.max))
    #expect(value("-9223372036854775808") == .integer(.min))
  }

  @Test func prefixedIntegers() {
    #expect(value("0xDEADBEEF") == .integer(0xDEAD_BEEF))
    #expect(value("0xdeadbeef") == .integer(0xDEAD_BEEF))
    #expect(value("0xdead_beef") == .integer(0xDEAD_BEEF))
    #expect(value("0o01234567") == .integer(0o01234567))
    #expect(value("0o755") == .integer(0o755))
    #expect(value("0b11010110") == .integer(0b11010110))
    #expect(value("0x0") == .integer(0))
    #expect(value("0x7FFFFFFFFFFFFFFF") == .integer(.max))
    #expect(value("0b1_0") == .integer(2))
  }

  @Test func integerErrors() {
    expectError(
      "v = 9223372036854775808", at: 1, 5,
      "integer 9223372036854775808 does not fit in 64 bits")
    expectError("v = -9223372036854775809", at: 1, 5, "does not fit in 64 bits")
    expectError("v = 0x8000000000000000", at: 1, 5, "does not fit in 64 bits")
    expectError("v = 0xFFFFFFFFFFFFFFFF", at: 1, 5, "does not fit in 64 bits")
    expectError("v = 01", at: 1, 5, "leading zeros are not allowed")
    expectError("v = +01", at: 1, 6, "leading zeros")
    expectError("v = 0_1", at: 1, 5, "leading zeros")
    expectError("v = 1__2", at: 1, 6, "underscore in a number must sit between two digits")
    expectError("v = 1_", at: 1, 6, "underscore")
    expectError("v = _1", at: 1, 5, "expected a value, found '_'")
    expectError("v = 0x_1", at: 1, 7, "expected hex digits")
    expectError("v = 0x1_", at: 1, 8, "underscore")
    expectError("v = +0x1", at: 1, 5, "a sign is not allowed on a hex")
    expectError("v = -0b1", at: 1, 5, "a sign is not allowed")
    expectError("v = 0X1", at: 1, 6, "invalid number '0X1'")
    expectError("v = 0o8", at: 1, 7, "expected octal digits")
    expectError("v = 0b102", at: 1, 9, "invalid binary digit '2'")
    expectError("v = 0xG", at: 1, 7, "expected hex digits")
    expectError("v = 1a", at: 1, 6, "invalid number '1a'")
    expectError("v = +", at: 1, 6, "invalid number '+'")
    expectError("v = 1 2", at: 1, 7, "expected a newline after a value")
  }

  @Test func floats() {
    #expect(value("+1.0") == .float(1))
    #expect(value("3.1415") == .float(3.1415))
    #expect(value("-0.01") == .float(-0.01))
    #expect(value("5e+22") == .float(5e22))
    #expect(value("1e06") == .float(1e6))
    #expect(value("-2E-2") == .float(-0.02))
    #expect(value("6.626e-34") == .float(6.626e-34))
    #expect(value("224_617.445_991_228") == .float(224_617.445_991_228))
    #expect(value("1e1_0") == .float(1e10))
    #expect(value("0.0") == .float(0))
    #expect(value("0e0") == .float(0))
    #expect(value("1.7976931348623157e308") == .float(.greatestFiniteMagnitude))
    #expect(value("5e-324") == .float(.leastNonzeroMagnitude))
    guard case .float(let negativeZero) = value("-0.0") else {
      Issue.record("-0.0 is not a float")
      return
    }
    #expect(negativeZero == 0 && negativeZero.sign == .minus)
  }

  @Test func specialFloats() {
    #expect(value("inf") == .float(.infinity))
    #expect(value("+inf") == .float(.infinity))
    #expect(value("-inf") == .float(-.infinity))
    for literal in ["nan", "+nan", "-nan"] {
      guard case .float(let d) = value(literal) else {
        Issue.record("\(literal) is not a float")
        continue
      }
      #expect(d.isNaN)
    }
  }

  @Test func floatErrors() {
    expectError("v = .7", at: 1, 5, "expected a value, found '.'")
    expectError("v = 7.", at: 1, 7, "expected a digit after the decimal point")
    expectError("v = 3.e+20", at: 1, 7, "expected a digit after the decimal point")
    expectError("v = 1e", at: 1, 7, "expected digits in the exponent")
    expectError("v = 1e+", at: 1, 8, "expected digits in the exponent")
    expectError("v = 1.5e_3", at: 1, 9, "expected digits in the exponent")
    expectError("v = 1._5", at: 1, 7, "expected a digit after the decimal point")
    expectError("v = 1.5_", at: 1, 8, "underscore")
    expectError("v = 03.14", at: 1, 5, "leading zeros")
    expectError("v = 1.2.3", at: 1, 8, "invalid float '1.2.3'")
    expectError("v = 1e2.5", at: 1, 8, "invalid float")
    expectError("v = Inf", at: 1, 5, "write 'inf' or 'nan' in lower case")
    expectError("v = NaN", at: 1, 5, "lower case")
    expectError("v = infinity", at: 1, 5, "invalid value 'infinity'")
    expectError("v = +nan1", at: 1, 6, "invalid number '+nan1'")
  }

  @Test func booleans() {
    #expect(value("true") == .boolean(true))
    #expect(value("false") == .boolean(false))
    expectError("v = True", at: 1, 5, "booleans are lower-case")
    expectError("v = truee", at: 1, 5, "invalid value 'truee'")
    expectError("v = yes", at: 1, 5, "invalid value 'yes' (strings must be quoted)")
  }
}
