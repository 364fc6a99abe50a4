/// A `multipart/form-data` body (RFC 7578): the page's photo upload. Text parts become
/// form fields, file parts keep their bytes. Only what a browser sends is taken: parts with
/// `Content-Disposition: form-data; name="..."` (and `filename` for a file), CRLF line ends,
/// no nested multiparts; anything else makes the body invalid (nil).
public struct MultipartForm: Sendable {
  /// One uploaded file.
  public struct File: Sendable {
    public var filename: String
    public var contentType: String?
    public var bytes: [UInt8]
  }

  public var fields: [(name: String, value: String)] = []
  public var files: [String: File] = [:]

  /// Parses `body` sent with `contentType` (its `boundary` parameter splits the parts).
  public init?(_ body: [UInt8], contentType: String) {
    guard let boundary = Self.boundary(contentType) else { return nil }
    let delimiter = Array("--\(boundary)".utf8)
    let crlf: [UInt8] = [13, 10]
    let nextDelimiter = crlf + delimiter
    guard var at = Self.find(delimiter, in: body, from: 0) else { return nil }
    at += delimiter.count
    while true {
      // After a delimiter: "--" ends the body, CRLF starts a part.
      if body[at...].starts(with: [45, 45]) { return }
      guard body[at...].starts(with: crlf) else { return nil }
      at += 2
      guard let headerEnd = Self.find(crlf + crlf, in: body, from: at),
        let end = Self.find(nextDelimiter, in: body, from: headerEnd + 4),
        let headers = String(validating: body[at..<headerEnd], as: UTF8.self)
      else { return nil }
      guard let part = Self.disposition(headers) else { return nil }
      let content = Array(body[(headerEnd + 4)..<end])
      if let filename = part.filename {
        files[part.name] = File(filename: filename, contentType: part.type, bytes: content)
      } else {
        guard let text = String(validating: content, as: UTF8.self) else { return nil }
        fields.append((part.name, text))
      }
      at = end + nextDelimiter.count
    }
  }

  /// The text fields as the form's fields (the CSRF token, the ETag).
  public var form: FormData { FormData(fields: fields, files: files) }

  /// The `boundary` of a `multipart/form-data` content type (quoted or not, 1-70 chars).
  static func boundary(_ contentType: String) -> String? {
    let parts = contentType.split(separator: ";").map { $0.trimmingBlanks }
    guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
    for p in parts.dropFirst() {
      let pair = p.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
      var b = pair[1]
      if b.hasPrefix("\""), b.hasSuffix("\""), b.count >= 2 { b = String(b.dropFirst().dropLast()) }
      return (1...70).contains(b.utf8.count) ? b : nil
    }
    return nil
  }

  /// The `name`, `filename` and `Content-Type` of a part's header block.
  static func disposition(_ headers: String) -> (name: String, filename: String?, type: String?)? {
    var name: String?
    var filename: String?
    var type: String?
    for line in headers.split(separator: "\r\n") {
      let pair = line.split(separator: ":", maxSplits: 1)
      guard pair.count == 2 else { return nil }
      let value = pair[1].trimmingBlanks
      switch pair[0].lowercased() {
      case "content-disposition":
        let params = value.split(separator: ";").map { $0.trimmingBlanks }
        guard params.first?.lowercased() == "form-data" else { return nil }
        for p in params.dropFirst() {
          let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
          guard kv.count == 2 else { continue }
          var v = kv[1]
          if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 {
            v = String(v.dropFirst().dropLast())
          }
          switch kv[0].lowercased() {
          case "name": name = v
          case "filename": filename = v
          default: break
          }
        }
      case "content-type": type = value
      default: break
      }
    }
    guard let name else { return nil }
    return (name, filename, type)
  }

  /// The first index of `needle` in `haystack` at or after `start`.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var i = start
    let last = haystack.count - needle.count
    while i <= last {
      if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }
}
