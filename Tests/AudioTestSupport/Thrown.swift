import Testing

/// The error that `body` throws, as an `E`; records an issue (and returns nil) when it
/// throws nothing or an error of another type.
///
/// `#expect(throws:)` returns the error only from Swift 6.1 on: this is the same check
/// for Debian trixie's Swift 6.0.3 as well.
@discardableResult
public func expectThrows<E: Error, R>(
  _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
  do {
    _ = try body()
    Issue.record(
      Comment(rawValue: "expected an error of type \(E.self), none was thrown"),
      sourceLocation: sourceLocation)
  } catch let error as E {
    return error
  } catch {
    Issue.record(
      Comment(rawValue: "expected an error of type \(E.self), got \(error)"),
      sourceLocation: sourceLocation)
  }
  return nil
}

/// Thrown by `requireThrows` when the body did not throw the expected error (the issue
/// is already recorded).
public struct ExpectedErrorMissing: Error {}

/// The error that `body` throws, as an `E`; records an issue and stops the test (throws)
/// when it throws nothing or an error of another type. `#require(throws:)` for Swift 6.0.
public func requireThrows<E: Error, R>(
  _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) throws -> E {
  guard let error = expectThrows(type, sourceLocation: sourceLocation, body) else {
    throw ExpectedErrorMissing()
  }
  return error
}
