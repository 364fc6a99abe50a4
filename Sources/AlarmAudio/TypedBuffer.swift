import AlarmCore
import AlarmFiles
import AlarmPlatform

extension Array {
  /// `withUnsafeMutableBufferPointer` for a body that throws a typed error, keeping the
  /// error's type.
  ///
  /// In Swift 6.0 (Debian trixie's toolchain) `withUnsafeMutableBufferPointer` is
  /// `rethrows`, so a `throws(E)` body comes back as `any Error`; the body's result
  /// travels out of the closure as a `Result` instead.
  mutating func withMutableBuffer<R, E: Error>(
    _ body: (UnsafeMutableBufferPointer<Element>) throws(E) -> R
  ) throws(E) -> R {
    let result = withUnsafeMutableBufferPointer { (buffer) -> Result<R, E> in
      do throws(E) {
        return .success(try body(buffer))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let value): return value
    case .failure(let error): throw error
    }
  }
}
