import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// A sound card as ALSA lists it.
public struct SoundCard: Sendable, Hashable {
  /// The card's number (`hw:1`).
  public var index: Int
  /// The card's id (`Loopback`, `Headphones`, `Device`), stable across reboots.
  public var id: String
  /// Its name (`Loopback`, `bcm2835 Headphones`).
  public var name: String

  public init(index: Int, id: String, name: String) {
    self.index = index
    self.id = id
    self.name = name
  }

  /// The PCM tried when the configured devices fail: by id, with rate and format
  /// conversion (`plughw:CARD=Loopback`).
  public var device: String { "plughw:CARD=\(id)" }
}

/// The last resort before the buzzer: every card present, in card order.
public enum SoundCards {
  /// The cards ALSA lists now (`snd_card_next`), with their ids read through the card's
  /// control device. A card whose control cannot be opened is listed by number as its id.
  public static func list() -> [SoundCard] {
    var cards: [SoundCard] = []
    var index: Int32 = -1
    // A card can vanish between two calls; the list stops at the first error.
    while snd_card_next(&index) == 0, index >= 0, cards.count < 64 {
      var namePointer: UnsafeMutablePointer<CChar>? = nil
      var name = ""
      if snd_card_get_name(index, &namePointer) == 0, let namePointer {
        name = String(cString: namePointer)
        free(namePointer)
      }
      cards.append(SoundCard(index: Int(index), id: cardID(index) ?? "\(index)", name: name))
    }
    return cards
  }

  private static func cardID(_ index: Int32) -> String? {
    var ctl: OpaquePointer? = nil
    guard snd_ctl_open(&ctl, "hw:\(index)", 0) >= 0, let ctl else { return nil }
    defer { snd_ctl_close(ctl) }
    var info: OpaquePointer? = nil
    guard snd_ctl_card_info_malloc(&info) >= 0, let info else { return nil }
    defer { snd_ctl_card_info_free(info) }
    guard snd_ctl_card_info(ctl, info) >= 0, let id = snd_ctl_card_info_get_id(info) else {
      return nil
    }
    return String(cString: id)
  }

  /// The devices a ring tries: `devices` (the configured device and its fallbacks), then
  /// each card's `plughw:CARD=<id>` that `devices` does not already name through a `plughw:`
  /// of the card (by id or number). A `hw:` device on a card does not count: it converts
  /// nothing, where `plughw:` may open.
  public static func chain(_ devices: [String], cards: [SoundCard]) -> [String] {
    let tried = Set(devices.compactMap(plugCard))
    var out = devices
    for card in cards where !tried.contains(card.id) && !tried.contains("\(card.index)") {
      if !out.contains(card.device) { out.append(card.device) }
    }
    return out
  }

  /// The card a `plughw:` device names (`plughw:1`, `plughw:CARD=Loopback,DEV=0`,
  /// `plughw:Loopback,0`), or nil.
  static func plugCard(_ device: String) -> String? {
    guard device.hasPrefix("plughw:") else { return nil }
    let args = device.dropFirst("plughw:".count)
    let first = args.split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
    let card = first.hasPrefix("CARD=") ? String(first.dropFirst(5)) : first
    return card.isEmpty ? nil : card
  }
}
