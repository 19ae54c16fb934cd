#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C API's status codes, as the command line's exit statuses: 0 success, 1 a failure that is not the user's
/// input, 2 bad input (the message names the file and line or JSON path), 3 an output that could not be written.
enum CAPIStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let badInput: Int32 = 2
    static let outputFailed: Int32 = 3
}

/// Hands bytes and errors across the C API: every text the library returns is a `malloc`ed, NUL-terminated buffer
/// (with its length, as tables may hold any byte) that the caller releases with `abrsim_free`. Used by the
/// `abrsim_*` functions only.
enum CAPIResult {
    /// Copies `bytes` into a new buffer and stores it and its length in the caller's out-parameters.
    static func hand(
        _ bytes: [UInt8], to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        length: UnsafeMutablePointer<Int>?
    ) {
        guard let out else { return }
        let buffer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress {
                memcpy(buffer, base, bytes.count)
            }
        }
        buffer[bytes.count] = 0
        out.pointee = buffer
        length?.pointee = bytes.count
    }

    /// Runs `body`, handing its bytes to `out` and returning ``CAPIStatus/success``; a thrown error is handed
    /// over as its one-line message and its status returned instead.
    static func call(
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?,
        _ body: () throws -> [UInt8]
    ) -> Int32 {
        do {
            hand(try body(), to: out, length: length)
            return CAPIStatus.success
        } catch {
            return fail(error, out, length)
        }
    }

    /// Hands `error`'s message to `out` and returns its status.
    static func fail(
        _ error: any Error, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ length: UnsafeMutablePointer<Int>?
    ) -> Int32 {
        let status: Int32
        switch error {
        case is InputError: status = CAPIStatus.badInput
        case is OutputError: status = CAPIStatus.outputFailed
        default: status = CAPIStatus.failure
        }
        hand(Array(String(describing: error).utf8), to: out, length: length)
        return status
    }

    /// Frames named tables as one buffer: for each, a line `name length` then `length` bytes (the Python package
    /// splits it back).
    static func frame(_ tables: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, table) in tables {
            bytes.append(contentsOf: Array("\(name) \(table.count)\n".utf8))
            bytes.append(contentsOf: table)
        }
        return bytes
    }

    /// A run's four tables and `capacity.csv` (the link's capacity over the run, for plots), framed.
    static func runTables(_ report: RunReport, scenario: Scenario) -> [UInt8] {
        var bundle = RunTables.bundle(for: report)
        bundle.add(name: "capacity.csv", bytes: CapacityTable.csv(curve: scenario.network.curve, end: report.endTime))
        return frame(bundle.names.map { ($0, bundle.bytes(named: $0) ?? []) })
    }

    /// The Swift string of a C string argument, or an input error naming `argument` when it is missing.
    static func string(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws -> String {
        guard let pointer else { throw InputError(.option(argument), .required()) }
        return String(cString: pointer)
    }
}

/// Releases a buffer the library handed out (a result or an error message). `NULL` is ignored.
@_cdecl("abrsim_free")
public func abrsim_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

/// The C API's version: 1 for this set of functions. Callers check it before using the others.
@_cdecl("abrsim_api_version")
public func abrsim_api_version() -> Int32 { 1 }
