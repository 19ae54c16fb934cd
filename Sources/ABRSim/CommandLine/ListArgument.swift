/// A comma-separated list given on the command line: `--policies bba,robust-mpc(horizon=5,bufferTarget=30)`,
/// `--grid 0.5,1,2`, `--players 1,4,16`.
///
/// Commas inside parentheses belong to the item (a policy's parameters). Each item is trimmed of spaces. An empty
/// item (an empty list, a leading, trailing or doubled comma, an item of spaces only) and unbalanced parentheses
/// are ``InputError``s naming the option, so that no command ever runs on a list that silently lost an item.
/// Called by the executable's `compare`, `sweep`, `tune` and `bench`.
public enum ListArgument {
    /// The items of `text`; `location` (the option, e.g. `--policies`) names it in errors.
    public static func items(_ text: String, location: String) throws -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        func finish() throws {
            let item = current.trimmingWhitespace()
            guard !item.isEmpty else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: location)),
                    text.trimmingWhitespace().isEmpty
                        ? .empty("list", no: "items")
                        : .missing("item \(items.count + 1) of '\(text)' (a stray comma?)"))
            }
            items.append(item)
            current = ""
        }
        for character in text {
            switch character {
            case "(": depth += 1
            case ")":
                depth -= 1
                guard depth >= 0 else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: location)),
                        .unpaired("')' in '\(text)'", missing: "its '('"))
                }
            case "," where depth == 0:
                try finish()
                continue
            default: break
            }
            current.append(character)
        }
        guard depth == 0 else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: location)),
                .unpaired("'(' in '\(text)'", missing: "its ')'"))
        }
        try finish()
        return items
    }

    /// The items of every value given for a repeatable option, in order (each value is a list of its own).
    public static func items(_ values: [String], location: String) throws -> [String] {
        try values.flatMap { try items($0, location: location) }
    }
}
