import AlarmCore
import AlarmWebPage
import Testing

@Suite struct WebLanguageTests {
  func locale(_ header: String?) -> DisplayLocale { WebLanguage(acceptLanguage: header).locale }

  @Test func missingOrMalformedHeaderIsEnglish() {
    for h in [nil, "", "*", ",,;;", "fr-FR", "de;q=0.9, ja", "zh-TW;q=0", "zh-TW;q=abc"] {
      #expect(locale(h) == .english, "\(h ?? "nil")")
    }
  }

  @Test func traditionalChineseTags() {
    for h in [
      "zh-TW", "zh-tw,zh;q=0.9,en-US;q=0.8", "zh-Hant", "zh-Hant-TW", "zh-HK", "zh", "ZH-MO",
    ] {
      #expect(locale(h) == .traditionalChinese, "\(h)")
    }
  }

  @Test func simplifiedChineseGetsEnglish() {
    for h in ["zh-CN", "zh-Hans-CN", "zh-SG,zh;q=0.5"] {
      #expect(locale(h) == .english, "\(h)")
    }
  }

  @Test func weightsDecideAndTiesKeepTheFirst() {
    #expect(locale("en;q=0.5, zh-TW;q=0.8") == .traditionalChinese)
    #expect(locale("zh-TW;q=0.4, en") == .english)
    #expect(locale("fr, zh-TW;q=0.9, en;q=0.9") == .traditionalChinese)
    #expect(locale("en-GB , zh-TW") == .english)
    #expect(locale(" ja ; q=1 , zh-Hant ; q=0.7 ") == .traditionalChinese)
  }

  @Test func htmlLang() {
    #expect(WebLanguage(.traditionalChinese).htmlLang == "zh-Hant-TW")
    #expect(WebLanguage(.english).htmlLang == "en")
  }
}
