import ABRSim

/// libFuzzer entry: the bytes as a pensieve trace, read through ``TraceReader``, then made into a looping
/// ``CapacityCurve`` (which validates it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTracePensieve(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "trace")
    expectInputErrorsOnly { _ = try TraceReader.read(path: path, format: .pensieve).curve(atEnd: .loop) }
    return 0
}
