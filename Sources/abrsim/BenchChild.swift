import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// Runs this same executable with `arguments` and returns its standard output's lines; a non-zero exit is an
/// error. Used by `abrsim bench` to measure each policy in a process of its own.
func runChild(_ arguments: [String]) throws -> [String] {
    let command = ShellCommand.line([try executablePath()] + arguments)
    guard let stream = popen(command, "r") else {
        throw InputError(
            .named("bench"), .invalid("could not start a measuring process: \(String(cString: strerror(errno)))"))
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, stream)
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    let status = pclose(stream)
    guard status == 0 else {
        throw InputError(
            .named("bench"), .invalid("the measuring process for '\(arguments.joined(separator: " "))' failed"))
    }
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// This process's peak resident set size so far, kilobytes (`getrusage`'s `ru_maxrss`).
func peakResidentKilobytes() -> Int {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return usage.ru_maxrss
}

/// The CPU time this process has used so far, seconds (`CLOCK_PROCESS_CPUTIME_ID`, every thread).
func processCPUSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The path of this executable (`/proc/self/exe` resolved here, since a shell started by `popen` has its own).
func executablePath() throws -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else {
        throw InputError(.named("bench"), .invalid("cannot find this executable: \(String(cString: strerror(errno)))"))
    }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
