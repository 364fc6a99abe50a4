import AlarmCore
import Testing

/// The `[web]` table of `alarmclock web`.
@Suite struct ConfigWebTests {
  @Test func listenAndTokenFileAreRead() throws {
    let config = try #require(
      validConfig(
        """
        [web]
        listen = "0.0.0.0:8080"
        token_file = "secret/web-token"
        """))
    #expect(config.web.listen == "0.0.0.0:8080")
    // Relative to the config's directory, like the other paths.
    #expect(config.web.tokenFile == "/etc/alarmclock/secret/web-token")
    #expect(validConfig("[web]\nlisten = \"[::]:80\"")?.web.listen == "[::]:80")
    #expect(validConfig("[web]\nlisten = \"localhost:9000\"")?.web.listen == "localhost:9000")
    #expect(validConfig("")?.web == WebConfig())
  }

  @Test func badValuesAreErrorsAtTheirPosition() {
    #expect(
      messages("[web]\nlisten = \"my-pi:8080\"") == [
        "2:10: 'listen' must be HOST:PORT with an IP address, e.g. \"127.0.0.1:8080\", \"0.0.0.0:8080\" or \"[::]:8080\", not \"my-pi:8080\""
      ])
    #expect(messages("[web]\nlisten = \"1.2.3.400:80\"").count == 1)
    #expect(messages("[web]\nlisten = \"1.2.3.4:70000\"").count == 1)
    #expect(
      messages("[web]\nlisten = 8080").first?.hasPrefix("2:10: 'listen' must be a string") == true)
    #expect(
      messages("[web]\nlistn = \"1.2.3.4:80\"").first?.contains("did you mean 'listen'") == true)
  }
}
