import AlarmCore
import Foundation

/// Fixtures under Tests/Fixtures/icalendar, read by path (outside the test
/// target's folder, so SwiftPM needs no resources declaration).
enum ICalendarFixtures {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let directory = repository.appendingPathComponent("Tests/Fixtures/icalendar")

  static var names: [String] {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return all.filter { $0.hasSuffix(".ics") }.sorted()
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  static func parse(_ name: String) throws -> ICalendarFile {
    ICalendarFile.parse(try bytes(name))
  }
}

/// Parses iCalendar text written with LF line ends in the test.
func ics(_ text: String) -> ICalendarFile { ICalendarFile.parse(Array(text.utf8)) }
