// Fuzz target `gpio-events`: bytes as read from a GPIO line-request fd,
// through GpioEventDecoder (what GpioEventReader.read() feeds), then the
// decoded edges through a PressDetector as the service wires them.
//
// Input: [options] [n] [n chunk sizes] then the stream. Options bit 0:
// take the first seqno as the baseline (a reused fd) instead of expecting 1;
// bits 1-7 pick the long-press and debounce times.
// Beyond "no crash":
// - the readings do not depend on how the stream is split into reads;
// - they are exactly what an independent reading of the records gives
//   (struct gpio_v2_line_event, little-endian, 48 bytes, unknown ids skipped,
//   a forward seqno jump reported as the number of lost events);
// - the press detector's deadline, when due, yields one long press.
import AlarmCore
import AlarmPlatform
import CShim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzBytes(data, size)
  let options = input.byte()
  let firstSeqno: UInt32? = options & 1 == 0 ? 1 : nil
  let sizes = input.chunkSizes()
  let stream = input.rest

  var whole = GpioEventDecoder(firstSeqno: firstSeqno)
  let expected = whole.feed(stream)
  var split = GpioEventDecoder(firstSeqno: firstSeqno)
  var got: [GpioReading] = []
  for chunk in chunks(stream, sizes: sizes) { got += split.feed(chunk) }
  require(got == expected, "readings depend on read sizes")
  require(expected == reference(stream, firstSeqno: firstSeqno), "readings differ from the records")

  let longPress = Duration.milliseconds(Int(options >> 4) * 250)
  let debounce = Duration.milliseconds(Int((options >> 1) & 7) * 10)
  var detector = PressDetector(longPress: longPress, minimumPress: debounce)
  for reading in expected {
    switch reading {
    case .dropped(let count):
      require(count > 0, "dropped 0 events")
      detector.eventsLost()
    case .closed: fail("the decoder reported .closed")
    case .event(let e):
      // The threshold timer fires before a later edge is read.
      if let due = detector.deadline, due <= e.timestampNanoseconds {
        require(
          detector.threshold(now: due) == .long, "deadline \(due) passed without a long press")
        require(detector.deadline == nil, "a deadline after the long press")
      }
      _ = detector.edge(e.pressEdge, at: e.timestampNanoseconds)
    }
  }
  return 0
}

/// The records read directly from the bytes, the way the kernel lays them out.
func reference(_ stream: ArraySlice<UInt8>, firstSeqno: UInt32?) -> [GpioReading] {
  let size = Int(CSHIM_GPIO_V2_LINE_EVENT_SIZE)
  var expected = firstSeqno
  var out: [GpioReading] = []
  var at = stream.startIndex
  while stream.endIndex - at >= size {
    let r = stream[at..<at + size]
    at += size
    let seqno = UInt32(le(r, 16, 4))
    if let e = expected, seqno > e { out.append(.dropped(count: seqno - e)) }
    expected = seqno &+ 1
    let edge: GpioLineEvent.Edge
    switch le(r, 8, 4) {
    case 1: edge = .rising
    case 2: edge = .falling
    default: continue
    }
    out.append(
      .event(
        GpioLineEvent(
          timestampNanoseconds: le(r, 0, 8), edge: edge, offset: UInt32(le(r, 12, 4)),
          seqno: seqno, lineSeqno: UInt32(le(r, 20, 4)))))
  }
  return out
}

/// A little-endian unsigned field of `width` bytes at `offset` in the record.
func le(_ r: ArraySlice<UInt8>, _ offset: Int, _ width: Int) -> UInt64 {
  var v: UInt64 = 0
  for i in (0..<width).reversed() { v = v << 8 | UInt64(r[r.startIndex + offset + i]) }
  return v
}
