@testable import ABRSim

/// libFuzzer entry: the bytes as what an external policy wrote (a reply line or its stderr), shown by
/// ``VisibleText/escaping(bytes:)`` as every output writes it. The result must hold no control character, line
/// separator or byte-order mark (one line of plain text anywhere), and bytes that are valid UTF-8 without any of
/// those must come back unchanged; the failure reason built from a bad reply must be escaped the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChildText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let shown = VisibleText.escaping(bytes: bytes)
    precondition(!shown.unicodeScalars.contains(where: VisibleText.isEscaped), "fuzz: an unescaped control")
    if let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: VisibleText.isEscaped)
    {
        precondition(shown == text, "fuzz: plain text changed")
    }
    let line = String(decoding: bytes, as: UTF8.self)
    if case .failure(let failure) = ExternalPolicy.parseReply(line, maxVariant: 5) {
        let reason = VisibleText.escaping(failure.message)
        precondition(!reason.unicodeScalars.contains(where: VisibleText.isEscaped), "fuzz: an unescaped reason")
    }
    return 0
}
