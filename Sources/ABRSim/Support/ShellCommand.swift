/// A command line for a POSIX shell, built from its arguments: what `abrsim plot` writes on a page to say how it
/// was drawn, and what `abrsim bench` hands to `popen` to start a measuring process.
public enum ShellCommand {
    /// `arguments` as one shell command line: each argument single-quoted (a `'` inside as `'\''`) when it holds
    /// anything but letters, digits and `-_./=,:+@%`.
    public static func line(_ arguments: [String]) -> String {
        arguments.map { argument -> String in
            let plain =
                !argument.isEmpty
                && argument.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=,:+@%".contains($0)) }
            guard !plain else { return argument }
            var quoted = "'"
            for character in argument { quoted += character == "'" ? "'\\''" : String(character) }
            return quoted + "'"
        }.joined(separator: " ")
    }
}
