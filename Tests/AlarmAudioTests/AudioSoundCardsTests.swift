import AlarmAudio
import Testing

/// The devices a ring tries: the configured ones, then every card not already named.
@Suite struct AudioSoundCardsTests {
  @Test func cardsFollowTheConfiguredDevicesUnlessAlreadyNamed() {
    let cards = [
      SoundCard(index: 0, id: "Headphones", name: "bcm2835 Headphones"),
      SoundCard(index: 1, id: "Loopback", name: "Loopback"),
      SoundCard(index: 2, id: "Device", name: "USB Audio Device"),
    ]
    #expect(
      SoundCards.chain(["default"], cards: cards) == [
        "default", "plughw:CARD=Headphones", "plughw:CARD=Loopback", "plughw:CARD=Device",
      ])
    // A plughw: of a card (by id or number) is that card tried; a bare hw: is not.
    #expect(
      SoundCards.chain(["hw:Loopback", "plughw:0", "plughw:CARD=Device,DEV=0"], cards: cards) == [
        "hw:Loopback", "plughw:0", "plughw:CARD=Device,DEV=0", "plughw:CARD=Loopback",
      ])
    #expect(SoundCards.chain(["pulse"], cards: []) == ["pulse"])
  }
}
