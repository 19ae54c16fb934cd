/// `names` as alternatives for a message or a listing: "a", "a or b", "a, b or c" ("" for none). Called by the
/// registries' error messages and the policy parameter listing.
public func listedAsAlternatives(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + last
}
