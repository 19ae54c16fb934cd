/// Decodes a player's `requests` object into ``RequestRetrySettings``: `timeoutSeconds` (> 0), `maxRetries`
/// (integer ≥ 0), `retryDelaySeconds` (≥ 0), `backoffFactor` (≥ 1), `maxRetryDelaySeconds` (≥ the retry delay);
/// every key optional, defaults as documented on the settings. Called by the player decoder; errors name the
/// JSON path.
enum RequestRetryDecoder {
    /// The settings `reader` (a `requests` object) gives.
    static func decode(_ reader: JSONReader) throws -> RequestRetrySettings {
        let object = try reader.object()
        var settings = RequestRetrySettings()
        if let x = object.optional("timeoutSeconds") {
            settings.timeoutSeconds = try x.double(in: 0.001...ScenarioBounds.bufferSeconds.upperBound)
        }
        if let x = object.optional("maxRetries") { settings.maximumRetries = try x.int(in: 0...1000) }
        if let x = object.optional("retryDelaySeconds") {
            settings.retryDelaySeconds = try x.double(in: ScenarioBounds.bufferSeconds)
        }
        if let x = object.optional("backoffFactor") {
            let factor = try x.double(in: 0...1000)
            guard factor >= 1 else { throw x.error(.mustBe("backoffFactor", rule: "at least 1", found: "\(factor)")) }
            settings.backoffFactor = factor
        }
        if let x = object.optional("maxRetryDelaySeconds") {
            let maximum = try x.double(in: ScenarioBounds.bufferSeconds)
            guard maximum >= settings.retryDelaySeconds else {
                throw x.error(
                    .mustBeRelative(
                        "maxRetryDelaySeconds", found: JSONPath.format(maximum), rule: "at least",
                        other: "retryDelaySeconds", otherValue: JSONPath.format(settings.retryDelaySeconds)))
            }
            settings.maximumRetryDelaySeconds = maximum
        } else {
            settings.maximumRetryDelaySeconds = max(settings.maximumRetryDelaySeconds, settings.retryDelaySeconds)
        }
        try object.finish()
        return settings
    }
}
