import ABRSim

/// libFuzzer entry: the bytes as a sabre movie description, read by ``SabreMovie``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSabreMovie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzScratch.write(data, size, to: "movie.json")
    expectInputErrorsOnly { _ = try SabreMovie.read(path: path) }
    return 0
}
