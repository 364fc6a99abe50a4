import AlarmCore
import AlarmWebPage
import Testing

@Suite struct WebLanguageTests {
  @Test func missingHeaderIsEnglish() {
    #expect(WebLanguage(acceptLanguage: nil).locale == .english)
  }
}
