// swift-tools-version:6.0
// alarmclock: a headless alarm-clock service for a bedside Linux box.
//
// Layers, bottom to top:
//   TOML           pure TOML 1.0 parser (library product of its own)
//   AlarmCore      pure core: model, config, time zones, schedule, ring session, state
//   CALSA/CSndFile system libraries (pkg-config + apt)
//   CShim          C shim for kernel macros and structs Swift cannot import
//   AlarmPlatform  Linux code: syscalls, event loop, input, GPIO output, control socket
//                  (no audio: nothing that plays none links ALSA or libsndfile)
//   AlarmFiles     the files the service and its clients share: config-file loading, the
//                  skip-calendar files, the service's paths and their defaults, the sound
//                  directories and names (SoundResolver)
//   AlarmAudio     ALSA playback and libsndfile decoding: the Ringer and its thread
//   AlarmService   the service wiring: one object owning the loop, engine, ringer, inputs
//   AlarmClient    what the CLI and the web process share: config edits, service requests, JSON
//                  (over AlarmFiles: neither it nor AlarmWeb imports AlarmService)
//   AlarmWebPage   the web page's HTML: pure renderers over AlarmCore
//   CMicroHTTPD    system library for the web process (pkg-config libmicrohttpd, apt)
//   AlarmWeb       `alarmclock web`: HTTP server in our loop, API, auth, page routes
//   CFFmpeg        system library for the stream helper (pkg-config libavformat, apt): FFmpeg's
//                  libavformat, libavcodec, libswresample, libavutil
//   AlarmStreamHelper  the stream helper: fetches and decodes a radio stream with FFmpeg in a
//                  process of its own, hands PCM to the service (which never links FFmpeg)
//   alarmclock     the executable: CLI commands; `run` starts AlarmService, `web` AlarmWeb
//   alarmclock-stream  the stream helper's executable (socket-activated, or the service's child)
//   alarmclock-bench  measurements for bench/ and fault injection for tests (not installed)
//
// Toolchains: tools version 6.0, so that Debian trixie's `swiftlang` (Swift 6.0.3, what
// Raspberry Pi OS users install) builds it as well as Swift 6.3. Both are checked on every
// CI run: `swift test` with 6.3, and scripts/test-arm64 builds the whole package and its
// tests with trixie's 6.0.3 (and runs them as aarch64). Synchronization.Mutex is not used
// (it traps under 6.0.3 on aarch64; scripts/test refuses it).
import PackageDescription

let package = Package(
  name: "alarmclock",
  products: [
    .library(name: "TOML", targets: ["TOML"]),
    .executable(name: "alarmclock", targets: ["alarmclock"]),
    .executable(name: "alarmclock-stream", targets: ["alarmclock-stream"]),
    .executable(name: "toml-decode", targets: ["toml-decode"]),
    .executable(name: "alarmclock-bench", targets: ["alarmclock-bench"]),
  ],
  targets: [
    .target(name: "TOML"),
    .executableTarget(name: "toml-decode", dependencies: ["TOML"]),
    .target(name: "AlarmCore", dependencies: ["TOML"]),
    .systemLibrary(
      name: "CALSA", pkgConfig: "alsa",
      providers: [.apt(["libasound2-dev"])]),
    .systemLibrary(
      name: "CSndFile", pkgConfig: "sndfile",
      providers: [.apt(["libsndfile1-dev"])]),
    .target(name: "CShim"),
    .target(name: "AlarmPlatform", dependencies: ["AlarmCore", "CShim"]),
    .target(name: "AlarmFiles", dependencies: ["AlarmCore", "AlarmPlatform"]),
    .target(
      name: "AlarmAudio",
      dependencies: [
        "AlarmCore", "AlarmPlatform", "AlarmFiles", "CALSA", "CSndFile", "CShim",
      ]),
    .target(
      name: "AlarmService",
      dependencies: ["AlarmCore", "AlarmPlatform", "AlarmFiles", "AlarmAudio"]),
    // The HTML pages of `alarmclock web`: pure renderers, strings from plain inputs.
    .target(name: "AlarmWebPage", dependencies: ["AlarmCore"]),
    .target(
      name: "AlarmClient",
      dependencies: ["AlarmCore", "AlarmPlatform", "AlarmFiles"]),
    .systemLibrary(
      name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]),
    .target(
      name: "AlarmWeb",
      dependencies: [
        "AlarmCore", "AlarmPlatform", "AlarmFiles", "AlarmClient", "AlarmWebPage", "CMicroHTTPD",
        "CShim",
      ]),
    .systemLibrary(
      name: "CFFmpeg", pkgConfig: "libavformat",
      providers: [
        .apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])
      ]),
    .target(
      name: "AlarmStreamHelper", dependencies: ["AlarmCore", "AlarmPlatform", "CFFmpeg"]),
    .executableTarget(name: "alarmclock-stream", dependencies: ["AlarmStreamHelper"]),
    .executableTarget(
      name: "alarmclock",
      dependencies: [
        "AlarmCore", "AlarmPlatform", "AlarmFiles", "AlarmAudio", "AlarmService", "AlarmClient",
        "AlarmWeb", "TOML",
      ]),
    // Measurements for bench/ and fault injection for the tests; not part of the product.
    .executableTarget(
      name: "alarmclock-bench",
      dependencies: ["AlarmCore", "AlarmPlatform", "AlarmAudio"]),
    .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
    .testTarget(
      name: "AlarmCoreTests", dependencies: ["AlarmCore", "TOML", "AudioTestSupport"]),
    .target(name: "AudioTestSupport", path: "Tests/AudioTestSupport"),
    .testTarget(
      name: "AlarmPlatformTests",
      dependencies: ["AlarmPlatform", "AlarmCore", "CShim", "AudioTestSupport"]),
    .testTarget(
      name: "AlarmAudioTests",
      dependencies: [
        "AlarmAudio", "AlarmFiles", "AlarmPlatform", "AlarmCore", "CShim", "AudioTestSupport",
      ]),
    .testTarget(
      name: "AlarmServiceTests",
      dependencies: [
        "AlarmService", "AlarmFiles", "AlarmAudio", "AlarmPlatform", "AlarmCore", "CShim",
      ]),
    .testTarget(name: "AlarmWebPageTests", dependencies: ["AlarmWebPage", "AlarmCore"]),
    .testTarget(
      name: "AlarmWebTests",
      dependencies: [
        "AlarmWeb", "AlarmWebPage", "AlarmClient", "AlarmCore", "AlarmPlatform", "AudioTestSupport",
      ]),
    // The issues' "done when" stories, end to end in one process: the phone page's app,
    // the service with its clock injected, real audio recorded from a null sink.
    .testTarget(
      name: "ScenarioTests",
      dependencies: [
        "AlarmService", "AlarmWeb", "AlarmClient", "AlarmAudio", "AlarmPlatform", "AlarmCore",
        "AudioTestSupport",
      ]),
    .testTarget(
      name: "alarmclockTests",
      dependencies: ["AlarmCore", "AudioTestSupport", "CShim"]),
    // The built alarmclock-stream against a real HTTP server on loopback (Tests/Fixtures/
    // stream/server.py): files, playlists, HLS, and the faults a station can have.
    .testTarget(
      name: "StreamHelperTests",
      dependencies: ["AlarmStreamHelper", "AlarmCore", "AudioTestSupport"]),
  ]
)
