// swift-tools-version:6.1
import PackageDescription

// Debug builds (development, `make check`, CI) turn every warning of our own targets into an
// error, so that a new one cannot hide among old ones; a release build (`make install`) never
// fails because a newer compiler warns about something new. Dependencies are not affected.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug)),
]

/// The engines (BlogctlEngines) keep their state in classes that libxml2's callbacks drive,
/// one event at a time on one thread of the caller's, so no access to it can overlap another:
/// a release build leaves out Swift's dynamic check of each (bench/render-shapes and
/// bench/feeds measure what it costs). This target alone: debug builds (the tests,
/// ThreadSanitizer, CI) keep every check, and the apps keep them in release too.
let exclusivityUncheckedInRelease: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// Where libxml2-dev puts the headers CLibXML2 includes (pkg-config --cflags libxml-2.0).
let libxml2Headers: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])]

/// sqlite-nio's options for its copy of SQLite, less the parts the toolbox does not use (FTS3
/// and 4, R-trees, sessions, the statistics tables, column metadata, unlock notification).
let sqliteSettings: [CSetting] = [
    .define("SQLITE_DEFAULT_MEMSTATUS", to: "0"),
    .define("SQLITE_DISABLE_PAGECACHE_OVERFLOW_STATS"),
    .define("SQLITE_DQS", to: "0"),
    .define("SQLITE_ENABLE_API_ARMOR", .when(configuration: .debug)),
    .define("SQLITE_ENABLE_FTS5"),
    .define("SQLITE_ENABLE_NULL_TRIM"),
    .define("SQLITE_ENABLE_UNKNOWN_SQL_FUNCTION"),
    .define("SQLITE_MAX_VARIABLE_NUMBER", to: "250000"),
    .define("SQLITE_LIKE_DOESNT_MATCH_BLOBS"),
    .define("SQLITE_OMIT_COMPLETE"),
    .define("SQLITE_OMIT_DEPRECATED"),
    .define("SQLITE_OMIT_DESERIALIZE"),
    .define("SQLITE_OMIT_GET_TABLE"),
    .define("SQLITE_OMIT_LOAD_EXTENSION"),
    .define("SQLITE_OMIT_PROGRESS_CALLBACK"),
    .define("SQLITE_OMIT_SHARED_CACHE"),
    .define("SQLITE_OMIT_TCL_VARIABLE"),
    .define("SQLITE_OMIT_TRACE"),
    .define("SQLITE_SECURE_DELETE"),
    .define("SQLITE_THREADSAFE", to: "1"),
    .define("SQLITE_UNTESTABLE"),
    .define("SQLITE_USE_URI"),
]

let package = Package(
    name: "toolbox",
    platforms: [.macOS(.v14)],
    products: [
        // One binary, run by the name it is called by (Sources/toolbox: make links each tool's
        // name to it): the Swift runtime and the libraries the tools share, once.
        .executable(name: "toolbox", targets: ["toolbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.23.0"),
        // Without the default traits: "FullFoundation" links Foundation's internationalization
        // and ICU's 34 MB of data into mockd; "ConfigurationSupport" is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
    ],
    targets: [
        // Headers only: BlogctlKit opens libxml2 when it first renders HTML (no pkgConfig,
        // whose -lxml2 would load it at every start); its headers' folder is `libxml2Headers`.
        .systemLibrary(
            name: "CLibXML2",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Headers only: ScreenKit opens ncursesw when a screen starts (no pkgConfig, no link).
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"])]),
        // The core under everything: text, width, files and paths, time, the sanitiser, errors,
        // configuration, spawning. No network and no argument parser: ScreenKit and the fuzz
        // harnesses stand on it alone.
        .target(name: "CoreKit", dependencies: ["CToolboxVersion", "CZlib"], swiftSettings: swiftSettings),
        // The version scripts/version.sh writes into the build (a header: a C string macro is
        // the one way to hand a Swift build a value without generating Swift source).
        .systemLibrary(name: "CToolboxVersion"),
        // Networking and the command line, on the core (which it re-exports).
        .target(
            name: "ToolboxKit",
            dependencies: [
                "CoreKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: swiftSettings),
        // The full-screen toolkit every `TOOL ui` and passcode's keypad draw with.
        .target(
            name: "ScreenKit", dependencies: ["CoreKit", "CNcurses"],
            swiftSettings: swiftSettings),
        .target(
            name: "CondtestKit", dependencies: ["CoreKit", "ToolboxKit", "ScreenKit"],
            swiftSettings: swiftSettings),
        .target(
            name: "CondtestCommands",
            dependencies: [
                "CondtestKit",
                "ToolboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/condtest",
            swiftSettings: swiftSettings),
        // SQLite itself: the amalgamation vapor/sqlite-nio vendors (FTS5 and the trigram
        // tokenizer's options built in; Debian's libsqlite3 is too old for them), copied here so
        // that SQLiteKit links SQLite's C code alone (sqlite-nio exports no product for it; its
        // SQLiteNIO product brought NIO's event loops along). vendor/sqlite/VERSION says which.
        .target(
            name: "CSQLite",
            path: "vendor/sqlite",
            exclude: ["VERSION"],
            cSettings: sqliteSettings),
        // The one door to SQLite: its C API, on the calling thread.
        .target(
            name: "SQLiteKit",
            dependencies: ["CSQLite"],
            swiftSettings: swiftSettings),
        .target(
            name: "DevsyncKit",
            dependencies: [
                "CoreKit",
                "ToolboxKit",
                "ScreenKit",
                "SQLiteKit",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "DevsyncCommands",
            dependencies: [
                "DevsyncKit",
                "ToolboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/devsync",
            swiftSettings: swiftSettings),
        .target(
            name: "PasscodeKit", dependencies: ["CoreKit", "ToolboxKit", "ScreenKit"],
            swiftSettings: swiftSettings),
        .target(
            name: "PasscodeCommands",
            dependencies: [
                "PasscodeKit",
                "ToolboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/passcode",
            swiftSettings: swiftSettings),
        // blogctl's engines: the HTML stream and its scanner, the body renderer and its
        // layout, the feed parsers. Pure, synchronous, single-threaded, driven by pushing
        // bytes in; on the core and the C libraries alone. Speed lives here, and the unsafe
        // switches with it; the apps above keep every check (ARCHITECTURE.md).
        .target(
            name: "BlogctlEngines",
            dependencies: ["CoreKit", "CLibXML2", "CZlib"],
            swiftSettings: swiftSettings + libxml2Headers + exclusivityUncheckedInRelease),
        .target(
            name: "BlogctlKit",
            dependencies: ["CoreKit", "ToolboxKit", "ScreenKit", "SQLiteKit", "BlogctlEngines", "CZlib"],
            swiftSettings: swiftSettings),
        .target(
            name: "BlogctlCommands",
            dependencies: [
                "BlogctlKit",
                "BlogctlEngines",
                "ToolboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/blogctl",
            swiftSettings: swiftSettings),
        .target(
            name: "MockdKit",
            dependencies: [
                "ToolboxKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "MockdCommands",
            dependencies: [
                "MockdKit",
                "ToolboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/mockd",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "toolbox",
            dependencies: ["BlogctlCommands", "CondtestCommands", "DevsyncCommands", "MockdCommands", "PasscodeCommands", "ToolboxKit"],
            swiftSettings: swiftSettings),
        // What every test target shares: temporary folders, process watchdogs.
        .target(
            name: "TestSupport", path: "Tests/Support",
            swiftSettings: swiftSettings),
        // What every screen's tests share: a program driven as the runner drives it, golden frames.
        .target(
            name: "ScreenDriver", dependencies: ["ScreenKit"], path: "Tests/ScreenDriver",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ToolboxKitTests", dependencies: ["ToolboxKit", "CoreKit", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SQLiteKitTests", dependencies: ["SQLiteKit", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenKitTests", dependencies: ["ScreenKit", "CoreKit", "ScreenDriver", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CondtestKitTests", dependencies: ["CondtestKit", "ScreenKit", "ScreenDriver", "TestSupport"],
            exclude: ["Fixtures", "Frames"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DevsyncKitTests",
            dependencies: ["DevsyncKit", "ScreenKit", "ScreenDriver", "SQLiteKit", "TestSupport"],
            exclude: ["Fixtures", "Frames"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PasscodeKitTests", dependencies: ["PasscodeKit", "ScreenKit", "ScreenDriver", "TestSupport"],
            exclude: ["Frames"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BlogctlKitTests", dependencies: ["BlogctlKit", "BlogctlEngines", "ScreenKit", "ScreenDriver", "SQLiteKit", "TestSupport"],
            exclude: ["Golden", "Frames", "OldLayout"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "MockdKitTests",
            dependencies: [
                "MockdKit",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EndToEndTests", dependencies: ["CoreKit", "ToolboxKit", "BlogctlKit", "BlogctlEngines", "SQLiteKit", "TestSupport"],
            swiftSettings: swiftSettings),
    ]
)
