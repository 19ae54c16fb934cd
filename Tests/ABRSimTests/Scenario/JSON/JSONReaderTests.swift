import Testing

@testable import ABRSim

/// A reader at the root of `text`, parsed as `scenario.json`.
private func root(_ text: String) throws -> JSONReader {
    JSONReader(try JSONParser.parse(Array(text.utf8), file: "scenario.json"), file: "scenario.json")
}

/// The InputError `body` throws, or `nil` (recorded as a failure) when it does not throw one.
private func thrown<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> InputError? {
    do {
        _ = try body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch let error as InputError {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite("the JSON reader")
struct JSONReaderTests {
    @Test("the JSON reader reads each typed value with its JSON path, and finish accepts every key read")
    func readsTypedValuesWithPaths() throws {
        let scenario = try root(
            #"{"name": "wifi", "seed": 7, "rate": 2.5, "live": false, "ladder": [300, 750.5], "tags": ["a", "b"]}"#)
        let object = try scenario.object()
        #expect(try object.required("name").string() == "wifi")
        #expect(try object.required("seed").int() == 7)
        #expect(try object.required("seed").nonNegativeInt() == 7)
        #expect(try object.required("rate").double() == 2.5)
        #expect(try object.required("rate").positiveDouble() == 2.5)
        #expect(try object.required("live").bool() == false)
        #expect(try object.required("ladder").doubleArray() == [300, 750.5])
        #expect(try object.required("tags").stringArray() == ["a", "b"])
        #expect(try object.required("ladder").path == "$.ladder")
        #expect(try object.required("ladder").array()[1].path == "$.ladder[1]")
        #expect(object.keys == ["name", "seed", "rate", "live", "ladder", "tags"])
        #expect(throws: Never.self) { try object.finish() }
    }

    @Test("nested readers build their JSON paths, quoting keys that are not identifiers")
    func buildsNestedPaths() throws {
        let document = try root(#"{"players": [{"policy": {"name": "bola"}}, {"my key": {"x-y": 1, "_ok9": 2}}]}"#)
        let players = try document.object().required("players").array()
        let policy = try players[0].object().required("policy")
        #expect(policy.path == "$.players[0].policy")
        #expect(try policy.object().required("name").path == "$.players[0].policy.name")
        let odd = try players[1].object().required("my key")
        #expect(odd.path == #"$.players[1]["my key"]"#)
        #expect(try odd.object().required("x-y").path == #"$.players[1]["my key"]["x-y"]"#)
        #expect(try odd.object().required("_ok9").path == #"$.players[1]["my key"]._ok9"#)
    }

    @Test("a JSON path quotes keys that are not identifiers, escaping quotes")
    func quotesKeysThatAreNotIdentifiers() {
        #expect(JSONPath.key("$", "abc_1") == "$.abc_1")
        #expect(JSONPath.key("$", "1abc") == #"$["1abc"]"#)
        #expect(JSONPath.key("$", "") == #"$[""]"#)
        #expect(JSONPath.key("$", "é") == #"$["é"]"#)
        #expect(JSONPath.key("$.a", #"say "hi""#) == #"$.a["say \"hi\""]"#)
    }

    @Test("a type mismatch names the type expected and the kind found, at its path")
    func namesTheTypesInMismatchMessages() throws {
        let document = try root(#"{"s": "x", "n": 1, "t": true, "z": null, "a": [], "o": {}}"#)
        let object = try document.object()
        let cases: [(String, (JSONReader) throws -> Void, InputProblem)] = [
            ("s", { _ = try $0.object() }, .expected("an object", found: "a string")),
            ("n", { _ = try $0.string() }, .expected("a string", found: "a number")),
            ("t", { _ = try $0.double() }, .expected("a number", found: "true")),
            ("z", { _ = try $0.bool() }, .expected("true or false", found: "null")),
            ("a", { _ = try $0.object() }, .expected("an object", found: "an array")),
            ("o", { _ = try $0.array() }, .expected("an array", found: "an object")),
            ("s", { _ = try $0.int() }, .expected("an integer", found: "a string")),
        ]
        for (key, read, problem) in cases {
            let reader = try object.required(key)
            let error = thrown { try read(reader) }
            #expect(error == InputError(.jsonPath("scenario.json", "$.\(key)"), problem))
        }
    }

    @Test("number reads check their ranges and wholeness, naming the value found")
    func checksNumberRanges() throws {
        let document = try root(#"{"zero": 0, "neg": -1.5, "frac": 2.5, "big": 1e300, "whole": 3.0, "negInt": -4}"#)
        let object = try document.object()
        #expect(try object.required("zero").nonNegativeDouble() == 0)
        #expect(try object.required("zero").nonNegativeInt() == 0)
        #expect(try object.required("whole").int() == 3)
        #expect(try object.required("negInt").int() == -4)
        #expect(
            thrown { try object.required("zero").positiveDouble() }?.problem
                == .outOfRange(what: "a number", bound: "> 0", found: "0"))
        #expect(
            thrown { try object.required("neg").nonNegativeDouble() }?.problem
                == .outOfRange(what: "a number", bound: ">= 0", found: "-1.5"))
        #expect(thrown { try object.required("frac").int() }?.problem == .expected("an integer", found: "2.5"))
        #expect(thrown { try object.required("big").int() }?.problem == .expected("an integer", found: "1e+300"))
        #expect(
            thrown { try object.required("negInt").nonNegativeInt() }?.problem
                == .outOfRange(what: "an integer", bound: ">= 0", found: "-4"))
        #expect(thrown { try object.required("zero").positiveInt() }?.place == .jsonPath("scenario.json", "$.zero"))
    }

    @Test("a non-finite number built in memory is refused as not finite")
    func rejectsNonFiniteNumbersBuiltInMemory() {
        let reader = JSONReader(.number(.infinity), file: "f", path: "$.x")
        #expect(
            thrown { try reader.positiveDouble() }
                == InputError(.jsonPath("f", "$.x"), .expected("a finite number", found: "inf")))
    }

    @Test("a missing key is reported at the object that lacks it")
    func reportsMissingKeysAtTheObject() throws {
        let players = try root(#"{"players": [{"policy": "bola"}]}"#).object().required("players").array()
        let error = thrown { try players[0].object().required("priority") }
        #expect(error == InputError(.jsonPath("scenario.json", "$.players[0]"), .missing(#"key "priority""#)))
    }

    @Test("an unknown key is reported at its object with the keys expected")
    func reportsUnknownKeysWithTheExpectedOnes() throws {
        let players = try root(#"{"players": [{"a": 1, "foo": 2, "c": 3}]}"#).object().required("players").array()
        let player = try players[0].object()
        _ = try player.required("a")
        _ = player.optional("b")
        _ = player.optional("c")
        let error = thrown { try player.finish() }
        #expect(
            error
                == InputError(
                    .jsonPath("scenario.json", "$.players[0]"), .unknownKeys([#""foo""#], known: ["a", "b", "c"])))
    }

    @Test("every unknown key is listed in document order")
    func listsEveryUnknownKeyInDocumentOrder() throws {
        let object = try root(#"{"zz": 1, "known": 2, "aa": 3}"#).object()
        _ = object.optional("known")
        #expect(thrown { try object.finish() }?.problem == .unknownKeys([#""zz""#, #""aa""#], known: ["known"]))
    }

    @Test("asking whether a key is present does not mark it known, but marking it does")
    func hasDoesNotMarkAKeyKnown() throws {
        let object = try root(#"{"kind": "cbr"}"#).object()
        #expect(object.has("kind"))
        #expect(!object.has("other"))
        #expect(thrown { try object.finish() }?.problem == .unknownKeys([#""kind""#], known: []))
        object.markKnown("kind")
        #expect(throws: Never.self) { try object.finish() }
    }

    @Test("an optional key gives nil when absent and a null reader when null")
    func optionalReturnsNilForAbsentKeysAndAReaderForNull() throws {
        let object = try root(#"{"x": null}"#).object()
        #expect(object.optional("missing") == nil)
        let x = object.optional("x")
        #expect(x?.isNull == true)
        #expect(x?.path == "$.x")
        #expect(throws: Never.self) { try object.finish() }
    }

    @Test("each reader answers the kind predicates for its value")
    func reportsKindsThroughPredicates() throws {
        let values = try root(#"["s", 1, true, null, [], {}]"#).array()
        #expect(values.map(\.isString) == [true, false, false, false, false, false])
        #expect(values.map(\.isNumber) == [false, true, false, false, false, false])
        #expect(values.map(\.isBool) == [false, false, true, false, false, false])
        #expect(values.map(\.isNull) == [false, false, false, true, false, false])
        #expect(values.map(\.isArray) == [false, false, false, false, true, false])
        #expect(values.map(\.isObject) == [false, false, false, false, false, true])
    }

    @Test("an error in an array names the element's index in its path")
    func namesTheElementInArrayErrors() throws {
        let ladder = try root(#"{"ladder": [300, "750", 1200]}"#).object().required("ladder")
        let error = thrown { try ladder.doubleArray() }
        #expect(
            error == InputError(.jsonPath("scenario.json", "$.ladder[1]"), .expected("a number", found: "a string")))
    }
}
