/// Sabre's `Replace` (`-r left` / `-r right`): before each new download, look for a buffered segment (beyond the
/// next ⌈1.5 + played fraction⌉) below the quality the ABR chose, the first (`left`) or the last (`right`), and
/// download that one again at the new quality instead; abandon the replacement once its segment would start
/// playing. ``replacing`` is a negative index from the buffer's end, as sabre keeps it.
final class SabreReplace: SabreAbandonRule {
    let strategy: SabreOptions.Replacement
    var replacing: Int? = nil

    init(_ strategy: SabreOptions.Replacement) { self.strategy = strategy }

    func checkReplace(_ sim: SabreSimulation, quality: Int) -> Int? {
        replacing = nil
        let contents = sim.bufferContents
        let skip = Int((1.5 + sim.bufferFcc / sim.segmentTime).rounded(.up))
        switch strategy {
        case .left:
            var i = skip
            while i < contents.count {
                if contents[i] < quality {
                    replacing = i - contents.count
                    break
                }
                i += 1
            }
        case .right:
            var i = contents.count - 1
            while i > skip - 1 {
                if contents[i] < quality {
                    replacing = i - contents.count
                    break
                }
                i -= 1
            }
        case .none: break
        }
        return replacing
    }

    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? {
        guard let replacing else { return nil }
        if bufferLevel + sim.segmentTime * Double(replacing) <= 0 { return -1 }
        return nil
    }
}
