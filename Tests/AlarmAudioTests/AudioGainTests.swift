import Foundation
import Testing

@testable import AlarmAudio
@testable import AlarmPlatform

@Suite struct AudioGainTests {
  @Test func volumeFollowsTheCubicLaw() {
    #expect(Gain.volume(100) == 1)
    #expect(Gain.volume(0) == 0)
    #expect(abs(Gain.volume(50) - 0.125) < 1e-6)
    #expect(abs(20 * log10(Double(Gain.volume(80))) - -5.81) < 0.01)
    #expect(Gain.volume(150) == 1 && Gain.volume(-3) == 0)
  }

  @Test func fadeRisesEvenlyInDecibels() {
    #expect(abs(Gain.fade(elapsed: 0, ramp: 10) - 0.001) < 1e-6)  // -60 dB
    #expect(abs(20 * log10(Double(Gain.fade(elapsed: 5, ramp: 10))) - -30) < 0.01)
    #expect(Gain.fade(elapsed: 10, ramp: 10) == 1)
    #expect(Gain.fade(elapsed: 3, ramp: 0) == 1)
    var last: Float = 0
    for t in stride(from: 0.0, through: 10, by: 0.25) {
      let g = Gain.fade(elapsed: t, ramp: 10)
      #expect(g >= last)
      last = g
    }
  }

  @Test func fallbackToneIsBurstsAt880Hz() {
    let tone = FallbackTone(sampleRate: 48_000, channels: 2)
    var buf = [Float](repeating: 0, count: 48_000 * 2 * 2)
    let n = buf.withUnsafeMutableBufferPointer { tone.read(into: $0.baseAddress!, frames: 96_000) }
    #expect(n == 57_600)  // one 1.2 s cycle, then the end (it loops like a file)
    let left = (0..<n).map { buf[2 * $0] }
    let burst = left[1000..<5000]
    var crossings = 0
    for i in burst.indices.dropFirst() where burst[i - 1] < 0 && burst[i] >= 0 { crossings += 1 }
    #expect(abs(Double(crossings) / (4000.0 / 48_000) - 880) < 20)
    #expect(left[7000..<9000].allSatisfy { $0 == 0 })  // the gap between bursts
  }

  @Test func mixerControlDeviceFromPCMName() {
    #expect(MixerControl.ctlName(forPCM: "hw:1,0") == "hw:1")
    #expect(MixerControl.ctlName(forPCM: "plughw:1") == "hw:1")
    #expect(MixerControl.ctlName(forPCM: "plughw:CARD=Device,DEV=0") == "hw:CARD=Device")
    #expect(MixerControl.ctlName(forPCM: "pulse") == "pulse")
    #expect(MixerControl.ctlName(forPCM: "default") == "default")
  }
}
