// Fuzz target `evdev-events`: bytes as read from an evdev fd, through
// EvdevEventDecoder (what EvdevEventReader.read() feeds), then the key
// events through a PressTracker bound to a few codes, as the service does.
//
// Input: [options] [n] [n chunk sizes] then the stream (64-bit layout:
// struct input_event is 24 bytes). Options pick long-press and debounce.
// Beyond "no crash":
// - the readings do not depend on how the stream is split into reads;
// - they are exactly what an independent reading of the records gives:
//   EV_KEY values 1 and 0 (2, autorepeat, dropped), SYN_DROPPED reported
//   and everything up to the next SYN_REPORT discarded, timestamps as
//   sec * 1e9 + usec * 1e3 saturating, 0 before the epoch;
// - the tracker's deadline, when due, yields long presses only, one per
//   held key, and no deadline is left behind for them.
import AlarmCore
import AlarmPlatform
import CShim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzBytes(data, size)
  let options = input.byte()
  let sizes = input.chunkSizes()
  let stream = input.rest

  var whole = EvdevEventDecoder()
  let expected = whole.feed(stream)
  var split = EvdevEventDecoder()
  var got: [EvdevReading] = []
  for chunk in chunks(stream, sizes: sizes) { got += split.feed(chunk) }
  require(got == expected, "readings depend on read sizes")
  require(expected == reference(stream), "readings differ from the records")

  let actions = PressActions(shortPress: .snooze, longPress: .stop)
  let bindings = [1, 28, 57, 164].map {  // KEY_ESC, KEY_ENTER, KEY_SPACE, KEY_PLAYPAUSE
    KeyBinding(
      code: UInt32($0), longPress: .milliseconds(Int(options >> 4) * 250),
      minimumPress: .milliseconds(Int(options & 15) * 10), actions: actions)
  }
  var tracker = PressTracker(bindings: bindings)
  for reading in expected {
    switch reading {
    case .dropped: tracker.eventsLost()
    case .closed: fail("the decoder reported .closed")
    case .key(let k):
      if let due = tracker.deadline, due <= k.timestampNanoseconds {
        let presses = tracker.threshold(now: due)
        require(!presses.isEmpty, "deadline \(due) passed without a long press")
        require(presses.allSatisfy { $0.kind == .long }, "a threshold press that is not long")
        require(Set(presses.map(\.code)).count == presses.count, "a key reported twice")
        require(tracker.deadline.map { $0 > due } ?? true, "a deadline left at \(due)")
      }
      if let press = tracker.edge(k.edge, code: UInt32(k.code), at: k.timestampNanoseconds) {
        require(bindings.contains { $0.code == press.code }, "a press of unbound code")
      }
    }
  }
  return 0
}

/// The records read directly from the bytes (linux/input.h, 64-bit).
func reference(_ stream: ArraySlice<UInt8>) -> [EvdevReading] {
  let size = Int(CSHIM_INPUT_EVENT_SIZE)
  require(size == 24, "fuzzing assumes the 64-bit struct input_event")
  var out: [EvdevReading] = []
  var discarding = false
  var at = stream.startIndex
  while stream.endIndex - at >= size {
    let r = stream[at..<at + size]
    at += size
    let (type, code, value) = (le(r, 16, 2), le(r, 18, 2), Int32(bitPattern: UInt32(le(r, 20, 4))))
    if type == 0 {
      if code == 3 {
        discarding = true
        out.append(.dropped)
      } else if code == 0 {
        discarding = false
      }
      continue
    }
    guard type == 1, !discarding, value == 0 || value == 1 else { continue }
    let sec = Int64(bitPattern: le(r, 0, 8))
    let usec = Int64(bitPattern: le(r, 8, 8))
    var ns: UInt64 = 0
    if sec >= 0 {
      let (a, o1) = UInt64(sec).multipliedReportingOverflow(by: 1_000_000_000)
      let (b, o2) = a.addingReportingOverflow(UInt64(min(max(usec, 0), 999_999)) * 1000)
      ns = o1 || o2 ? .max : b
    }
    out.append(
      .key(
        EvdevKeyEvent(code: UInt16(code), edge: value == 1 ? .down : .up, timestampNanoseconds: ns))
    )
  }
  return out
}

func le(_ r: ArraySlice<UInt8>, _ offset: Int, _ width: Int) -> UInt64 {
  var v: UInt64 = 0
  for i in (0..<width).reversed() { v = v << 8 | UInt64(r[r.startIndex + offset + i]) }
  return v
}
