// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every Swift target. Release builds use SwiftPM's default `-O`, which keeps every
/// precondition, bounds check and overflow check: a bug traps instead of silently corrupting results. The few hot
/// loops that skip checks do so locally and documented where they do (`CapacityCurve.UnsafeLookup`,
/// `EventQueue.UnsafeHeapHandle`, `@exclusivity(unchecked)` on per-event state); see BENCHMARKS.md.
let swiftSettings: [SwiftSetting] = []

let package = Package(
    name: "ABRSim",
    products: [
        .library(name: "ABRSim", targets: ["ABRSim"]),
        .executable(name: "abrsim", targets: ["abrsim"]),
        // The C API (Sources/ABRSim/CAPI) as a shared library, loaded in process by the Python package.
        .library(name: "ABRSimC", type: .dynamic, targets: ["ABRSim"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        .target(name: "ABRSim", dependencies: ["CGSL"], swiftSettings: swiftSettings),
        // The command-line tool carries the Swift runtime in the binary (`-static-stdlib`): a run of `abrsim` then
        // skips the dynamic loader's work on the runtime libraries (a trivial run: 4.2 → 2.7 ms of CPU). Only this
        // executable: the ABRSimC shared library keeps the shared runtime.
        .executableTarget(
            name: "abrsim", dependencies: ["ABRSim"], swiftSettings: swiftSettings,
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        // What both test targets share: package paths, the `abrsim` runner, fixtures. Public API of ABRSim only, so
        // the release build (which builds every regular target) still compiles it.
        .target(
            name: "ABRSimTestSupport", dependencies: ["ABRSim"], path: "Tests/ABRSimTestSupport",
            swiftSettings: swiftSettings),
        // Unit tests: in process, no child processes.
        .testTarget(
            name: "ABRSimTests", dependencies: ["ABRSim", "ABRSimTestSupport"], swiftSettings: swiftSettings),
        // End-to-end tests: they launch the built `abrsim` binary or child processes (external policies, shells).
        .testTarget(
            name: "ABRSimEndToEndTests", dependencies: ["ABRSim", "ABRSimTestSupport"],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
