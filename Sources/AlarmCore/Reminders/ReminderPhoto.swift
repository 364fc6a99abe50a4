/// A reminder's photo: a file in the list's photo directory, served only when its bytes are
/// an image of a kind every phone shows (so a hand-placed text or HTML file is never served
/// as a page of this origin).
public enum ReminderPhoto {
  /// The largest photo served, in bytes.
  public static let maxBytes = 8 << 20

  /// The MIME type of an image's bytes (JPEG, PNG, GIF or WebP, by their signatures), or nil.
  public static func mediaType(of bytes: some Collection<UInt8>) -> String? {
    let head = Array(bytes.prefix(12))
    func starts(_ signature: [UInt8]) -> Bool { head.starts(with: signature) }
    if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
    if head.count == 12, starts(Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
      return "image/webp"
    }
    return nil
  }
}
