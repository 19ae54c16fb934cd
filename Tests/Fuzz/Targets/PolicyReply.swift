@testable import ABRSim

/// libFuzzer entry: the bytes as one reply line of an external policy, parsed by
/// ``ExternalPolicy/parseReply(_:maxVariant:)`` as ``ChildProcess`` hands it over (decoded as UTF-8, repaired).
/// A decision it accepts must be in range: a variant in 0…5 or a finite, non-negative wait.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicyReply(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .success(let decision) = ExternalPolicy.parseReply(line, maxVariant: 5) {
        switch decision {
        case .variant(let index): precondition((0...5).contains(index), "fuzz: variant \(index) out of range")
        case .wait(let seconds): precondition(seconds >= 0 && seconds.isFinite, "fuzz: wait \(seconds)")
        }
    }
    return 0
}
