/// A one-player scenario whose player has the given `requests` object (the request retry settings' tests).
package enum RequestSettingsFixture {
    package static func scenario(requests: String) -> String {
        #"{"name": "r", "network": {"preset": "lte"}, "content": {"ladderKbps": [500], "segmentSeconds": 4, "#
            + #""segments": 2}, "players": [{"id": "a", "policy": "fixed", "requests": \#(requests)}]}"#
    }
}
