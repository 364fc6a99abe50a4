import AlarmCore
import AudioTestSupport
import Foundation
import Testing

/// The Swift reader against an independent one: scripts/icalendar-reference
/// (PyPI icalendar + recurring-ical-events), over every fixture and 7 years.
@Suite struct ICalendarReferenceTests {
  static let script = ICalendarFixtures.repository.appendingPathComponent(
    "scripts/icalendar-reference")

  /// Fixtures that are deliberately malformed: the reference may read them differently.
  static let malformed: Set<String> = ["malformed.ics"]
  /// The others. (A closure in the `@Test` attribute itself crashes Swift 6.0.3.)
  static let wellFormed = ICalendarFixtures.names.filter { !malformed.contains($0) }

  /// Runs the script (Tool.run, shared with the audio tests' command-line tools).
  static func reference(_ name: String, _ first: String, _ last: String) throws -> (
    status: Int32, out: String, err: String
  ) {
    let path = ICalendarFixtures.directory.appendingPathComponent(name).path
    return try Tool.run(["python3", script.path, path, first, last])
  }

  /// The Swift reader's output in the script's format.
  static func swiftLines(_ file: ICalendarFile, _ first: String, _ last: String) -> [String] {
    let pairs = file.occurrences(from: day(first), through: day(last)).map {
      "\($0.date)\t\($0.summary.replacingOccurrences(of: "\n", with: "\\n"))"
    }
    return Set(pairs).sorted()
  }

  /// Seven whole years, and a window whose ends cut through multi-day events.
  static let windows = [("2025-01-01", "2031-12-31"), ("2027-07-25", "2028-01-01")]

  @Test(arguments: wellFormed)
  func matchesReference(_ name: String) throws {
    let file = try ICalendarFixtures.parse(name)
    #expect(file.warnings.map(\.description) == [], "\(name)")
    for (first, last) in Self.windows {
      let run: (status: Int32, out: String, err: String)
      do {
        run = try Self.reference(name, first, last)
      } catch {
        print("skipping the icalendar reference comparison: cannot run python3 (\(error))")
        return
      }
      // 3: the script could not install its modules; 127: no python3.
      if run.status == 3 || run.status == 127 {
        print("skipping the icalendar reference comparison: \(run.err)")
        return
      }
      #expect(run.status == 0, "\(run.err)")
      let expected = run.out.split(separator: "\n").map(String.init)
      let actual = Self.swiftLines(file, first, last)
      #expect(!expected.isEmpty || first != Self.windows[0].0, "\(name): no days at all")
      let missing = expected.filter { !actual.contains($0) }
      let extra = actual.filter { !expected.contains($0) }
      #expect(missing == [], "\(name) \(first)...\(last): the reference has these, Swift not")
      #expect(extra == [], "\(name) \(first)...\(last): Swift has these, the reference not")
    }
  }
}
