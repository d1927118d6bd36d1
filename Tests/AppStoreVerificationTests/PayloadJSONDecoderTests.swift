import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// The strict payload decoder (`AppStoreJSON.decode`, used by the verifier) against Foundation's
/// `JSONDecoder` as `AppStoreJSON.makeDecoder()` configures it.
///
/// Deliberate differences, each tested below: a document with a duplicate key is refused (Foundation
/// keeps the first value); a number an integer or a `Double` cannot hold exactly is refused at its
/// field (Foundation calls some of them invalid JSON and rounds others through a `Double`); a byte
/// order mark or UTF-16 text is refused.
@Suite("Payload JSON decoding")
struct PayloadJSONDecoderTests {
    static func decodeTransaction(_ json: String) throws -> Transaction {
        try AppStoreJSON.decode(Transaction.self, from: Data(json.utf8))
    }

    /// The error our decoder throws for `json`, or `nil` when it decodes.
    static func error<T: Decodable>(_ type: T.Type, _ json: some Sequence<UInt8>) -> DecodingError? {
        do {
            _ = try AppStoreJSON.decode(T.self, from: Data(json))
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record("not a DecodingError: \(error)")
            return nil
        }
    }

    /// The error our decoder throws for `json` as a transaction, or `nil` when it decodes.
    static func error(_ json: some Sequence<UInt8>) -> DecodingError? { error(Transaction.self, json) }

    /// The context of a `dataCorrupted` error, or `nil` for any other outcome.
    static func corruption<T: Decodable>(_ type: T.Type, json: String) -> DecodingError.Context? {
        guard case .dataCorrupted(let context) = error(T.self, Array(json.utf8)) else { return nil }
        return context
    }

    /// The context of a `dataCorrupted` error for `json` as a transaction, or `nil`.
    static func corruption(json: String) -> DecodingError.Context? { corruption(Transaction.self, json: json) }

    // MARK: - Strictness

    @Test("strict RFC 8259: every malformed document is refused as invalid JSON (empty coding path)", arguments: [
        "", " ", "\n\t\r ", "{", "}", "{\"a\":1,}", "{\"a\":01}", "{\"a\":-01}", "{\"a\":00}", "{\"a\":NaN}", "{\"a\":-NaN}",
        "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":+1}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}",
        "{\"a\":1e+}", "{\"a\":0x10}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}",
        "{\"a\":\"\\udc00\\ud800\"}", "{\"a\":\"\\ud800\\n\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}",
        "{\"a\":\"\u{01}\"}", "{\"a\":\"\u{1F}\"}", "{\"a\":\"\t\"}", "{\"a\":\"\n\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\'\"}",
        "{\"a\":tru}", "{\"a\":True}", "{\"a\":nul}", "{\"a\":undefined}", "{\"a\":1} x", "{\"a\":1}{}", "{\"a\":1},",
        "{'a':1}", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{a:1}", "{\"a\":[1,]}", "{\"a\":[,1]}", "{\"a\":[1 2]}", "[1,]",
        "{\"a\":\"unterminated}", "{\"a\":1 /* comment */}", "// comment\n{}", "{\"a\":1}\u{0C}", "\u{0B}{}",
        "\u{A0}{}", "{}\u{2028}", "\u{FEFF}{}",
    ])
    func malformed(_ json: String) throws {
        let context = try #require(Self.corruption(json: json), "\(json.debugDescription) must be refused as invalid JSON")
        #expect(context.codingPath.isEmpty, "\(json.debugDescription)")
        #expect(context.debugDescription.hasPrefix("Invalid JSON: "), "\(context.debugDescription)")
        #expect(context.debugDescription.contains(" at offset "), "\(context.debugDescription)")
    }

    @Test("duplicate keys are refused, top-level and nested, however the name is written")
    func duplicateKeys() throws {
        let topLevel = try #require(Self.corruption(json: #"{"quantity":1,"quantity":2}"#))
        #expect(topLevel.codingPath.isEmpty)
        #expect(topLevel.debugDescription == #"Invalid JSON: duplicate key "quantity" (parsers disagree on which value wins) at offset 14."#)
        for json in [
            #"{"transactionId":"1","transactionId":"1"}"#,
            #"{"commitmentInfo":{"commitmentPrice":1,"commitmentPrice":2}}"#,
            #"{"advancedCommerceInfo":{"items":[{"SKU":"a"},{"SKU":"a","SKU":"b"}]}}"#,
            #"{"unknown":{"x":null,"x":null}}"#,
            #"{"quantity":1,"q\u0075antity":2}"#,
            #"{"\u00e9":1,"é":2}"#,
            #"{"":1,"":2}"#,
        ] {
            let context = try #require(Self.corruption(json: json), "\(json)")
            #expect(context.codingPath.isEmpty, "\(json)")
            #expect(context.debugDescription.contains("duplicate key"), "\(json): \(context.debugDescription)")
        }
        // Objects with many members (past the linear search): escaped and plain names still meet.
        for count in [31, 32, 33, 200] {
            let members = (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
            #expect(Self.error(Array("{\(members)}".utf8)) == nil, "\(count)")
            for duplicate in ["\"k0\":0", "\"k\\u0030\":0", "\"k\(count - 1)\":0"] {
                let context = Self.corruption(json: "{\(members),\(duplicate)}")
                #expect(context?.debugDescription.contains("duplicate key") == true, "\(count) \(duplicate)")
            }
        }
        // Foundation keeps the first value: this is a deliberate difference.
        #expect(try AppStoreJSON.makeDecoder().decode(Transaction.self, from: Data(#"{"quantity":1,"quantity":2}"#.utf8)).quantity == 1)
        // Names that only look alike are different names.
        #expect(Self.error(Array(#"{"a":1,"A":2,"a ":3,"\u0000a":4}"#.utf8)) == nil)
    }

    @Test("invalid UTF-8 is refused, in strings and outside them", arguments: [
        [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        [0xFF], [0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ] as [[UInt8]])
    func invalidUTF8(_ bad: [UInt8]) {
        for json in [Array("{\"transactionId\":\"".utf8) + bad + Array("\"}".utf8), Array("{\"".utf8) + bad + Array("\":1}".utf8), Array("{}".utf8) + bad] {
            guard case .dataCorrupted(let context) = Self.error(json) else {
                Issue.record("\(bad) must be refused")
                continue
            }
            #expect(context.codingPath.isEmpty)
        }
    }

    @Test("valid UTF-8, escapes and surrogate pairs decode to the same text as with JSONDecoder")
    func strings() throws {
        let json = #"{"productId":"a\u00e9\ud83d\ude00\n\"\/\\\b\f\r\t\u0000é😀\u007F𝄞","transaction\u0049d":"escaped name"}"#
        let transaction = try Self.decodeTransaction(json)
        #expect(transaction.productId == "aé😀\n\"/\\\u{08}\u{0C}\r\t\u{0}é😀\u{7F}𝄞")
        #expect(transaction.transactionId == "escaped name")
        #expect(transaction == (try AppStoreJSON.makeDecoder().decode(Transaction.self, from: Data(json.utf8))))
        // Raw UTF-8 at the edges of the valid ranges.
        let edges: [UInt8] = [0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xEF, 0xBF, 0xBF,
                              0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF]
        let raw = Data(Array(#"{"productId":""#.utf8) + edges + Array(#""}"#.utf8))
        #expect(try AppStoreJSON.decode(Transaction.self, from: raw).productId == String(decoding: edges, as: UTF8.self))
        #expect(Self.agreement(Transaction.self, raw) == .bothDecoded)
    }

    @Test("nesting: 128 levels are accepted, deeper is refused, and 10,000 levels do not crash")
    func depth() throws {
        func nested(_ levels: Int) -> String {
            // The payload object is the first level.
            "{\"unknown\":" + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        }
        #expect(Self.error(Array(nested(JSONParser.maximumDepth).utf8)) == nil)
        let tooDeep = try #require(Self.corruption(json: nested(JSONParser.maximumDepth + 1)))
        #expect(tooDeep.codingPath.isEmpty)
        #expect(tooDeep.debugDescription.contains("nesting deeper than 128 levels"), "\(tooDeep.debugDescription)")
        for levels in [10_000, 100_000] {
            let arrays = try #require(Self.corruption(json: nested(levels)))
            #expect(arrays.debugDescription.contains("nesting deeper"))
            let objects = String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels)
            #expect(Self.corruption(json: objects)?.codingPath.isEmpty == true)
            let unclosed = String(repeating: "[", count: levels)
            #expect(Self.corruption([Int].self, json: unclosed)?.codingPath.isEmpty == true)
        }
    }

    @Test("big documents: a 1 MB string value, and 10,000 unknown members")
    func big() throws {
        let value = String(repeating: "x", count: 1 << 20)
        #expect(try Self.decodeTransaction("{\"transactionId\":\"\(value)\"}").transactionId == value)
        let escaped = String(repeating: "\\u00e9", count: 1 << 17)
        #expect(try Self.decodeTransaction("{\"productId\":\"\(escaped)\"}").productId.count == 1 << 17)
        let members = (0..<10_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try Self.decodeTransaction("{\(members),\"quantity\":3}").quantity == 3)
    }

    // MARK: - Numbers

    @Test("integers decode exactly, up to the bounds of their type")
    func exactIntegers() throws {
        #expect(try Self.decodeTransaction(#"{"price":9223372036854775807}"#).price == Int64.max)
        #expect(try Self.decodeTransaction(#"{"price":-9223372036854775808}"#).price == Int64.min)
        #expect(try Self.decodeTransaction(#"{"price":9007199254740993}"#).price == 9_007_199_254_740_993)
        #expect(try Self.decodeTransaction(#"{"quantity":2147483647}"#).quantity == Int32.max)
        #expect(try Self.decodeTransaction(#"{"quantity":-2147483648}"#).quantity == Int32.min)
        #expect(try Self.decodeTransaction(#"{"quantity":-0}"#).quantity == 0)
        // A whole value written with a fraction or an exponent, as JSONDecoder accepts it; computed
        // from the digits, not through a Double.
        for (json, value) in [("1.0", 1), ("1e2", 100), ("1E+2", 100), ("1.5e1", 15), ("100e-2", 1), ("-0.0", 0),
                              ("0e999999999999", 0), ("2147483647.000", 2_147_483_647), ("-2.147483648e9", -2_147_483_648)] as [(String, Int32)] {
            #expect(try Self.decodeTransaction("{\"quantity\":\(json)}").quantity == value, "\(json)")
        }
        #expect(try Self.decodeTransaction(#"{"price":9223372036854775807.0}"#).price == Int64.max)
        #expect(try Self.decodeTransaction(#"{"price":9.223372036854775807e18}"#).price == Int64.max)
        #expect(try Self.decodeTransaction(#"{"price":100000000000000000000e-2}"#).price == 1_000_000_000_000_000_000)
        #expect(try AppStoreJSON.decode(UInt64.self, from: Data("18446744073709551615".utf8)) == UInt64.max)
        #expect(try AppStoreJSON.decode(Int8.self, from: Data("-128".utf8)) == Int8.min)
    }

    @Test("a number its integer field cannot hold is refused at that field", arguments: [
        ("quantity", "1.5", "Int32"), ("quantity", "2147483648", "Int32"), ("quantity", "-2147483649", "Int32"),
        ("quantity", "1e10", "Int32"), ("quantity", "1e-1", "Int32"), ("quantity", "0.5", "Int32"),
        ("quantity", "1e999999999999999999", "Int32"), ("quantity", "1.0000000000000000001", "Int32"), ("quantity", "1e-400", "Int32"),
        ("price", "9223372036854775808", "Int64"), ("price", "-9223372036854775809", "Int64"),
        ("price", "99999999999999999999999999", "Int64"), ("price", "9.3e18", "Int64"), ("price", "9007199254740993.5", "Int64"),
        ("revocationPercentage", "50000.5", "Int32"), ("offerType", "1.5", "Int32"),
    ])
    func integerOutOfRange(_ field: String, _ number: String, _ type: String) throws {
        let context = try #require(Self.corruption(json: "{\"\(field)\":\(number)}"), "\(field): \(number)")
        #expect(context.codingPath.map(\.stringValue) == [field])
        #expect(context.debugDescription == "Parsed JSON number <\(number)> does not fit in \(type).")
    }

    @Test("a number in a nested object or an array is refused with the full coding path")
    func nestedNumberPaths() throws {
        let nested = try #require(Self.corruption(json: #"{"commitmentInfo":{"totalBillingPeriods":12.5}}"#))
        #expect(nested.codingPath.map(\.stringValue) == ["commitmentInfo", "totalBillingPeriods"])
        let inArray = try #require(Self.corruption(json: #"{"advancedCommerceInfo":{"items":[{},{"offer":{"price":1e300}}]}}"#))
        #expect(inArray.codingPath.map(\.stringValue) == ["advancedCommerceInfo", "items", "Index 1", "offer", "price"])
        #expect(inArray.codingPath[2].intValue == 1)
    }

    @Test("dates: milliseconds since 1970, fractions and exponents allowed, non-finite refused")
    func dates() throws {
        let fractional = try #require(try Self.decodeTransaction(#"{"signedDate":1697679936049.7297}"#).signedDate)
        #expect(fractional.timeIntervalSince1970 == 1_697_679_936_049.7297 / 1000)
        #expect(try Self.decodeTransaction(#"{"signedDate":1.7e12}"#).signedDate == Date(timeIntervalSince1970: 1.7e9))
        #expect(try Self.decodeTransaction(#"{"signedDate":-1000}"#).signedDate == Date(timeIntervalSince1970: -1))
        #expect(try Self.decodeTransaction(#"{"signedDate":9007199254740993}"#).signedDate == Date(timeIntervalSince1970: 9_007_199_254_740_992 / 1000))
        for number in ["1e400", "-1e400", "1e-400"] {
            let context = try #require(Self.corruption(json: "{\"signedDate\":\(number)}"), "\(number)")
            #expect(context.codingPath.map(\.stringValue) == ["signedDate"])
        }
        guard case .typeMismatch(let type, let context) = Self.error(Array(#"{"signedDate":"1697679936049"}"#.utf8)) else {
            Issue.record("a string is not a date")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Double.self))
        #expect(context.codingPath.map(\.stringValue) == ["signedDate"])
    }

    @Test("Double and Float use the standard conversion; what they cannot hold is refused at the field")
    func floatingPoint() throws {
        struct Numbers: Decodable, Equatable {
            var double: Double?
            var float: Float?
        }
        for json in [#"{"double":0.1,"float":0.1}"#, #"{"double":1.7976931348623157e308,"float":3.4028234e38}"#,
                     #"{"double":4.9e-324,"float":1e-45}"#, #"{"double":123456789012345678901234567890,"float":16777217}"#,
                     #"{"double":-0,"float":-0.0}"#, #"{"double":2.2250738585072011e-308}"#] {
            let ours = try AppStoreJSON.decode(Numbers.self, from: Data(json.utf8))
            let theirs = try AppStoreJSON.makeDecoder().decode(Numbers.self, from: Data(json.utf8))
            #expect(ours == theirs, "\(json)")
            #expect(ours.double?.sign == theirs.double?.sign, "\(json)")
        }
        // Zero with a positive exponent is zero (Foundation's JSONDecoder calls it invalid JSON).
        #expect(try AppStoreJSON.decode(Numbers.self, from: Data(#"{"double":0e5,"float":0E1}"#.utf8)) == Numbers(double: 0, float: 0))
        for (json, field) in [(#"{"double":1e309}"#, "double"), (#"{"double":1e-400}"#, "double"), (#"{"float":1e39}"#, "float"), (#"{"float":1e-50}"#, "float")] {
            let context = try #require(Self.corruption(Numbers.self, json: json), "\(json)")
            #expect(context.codingPath.map(\.stringValue) == [field])
        }
    }

    // MARK: - Types, nulls, containers

    @Test("a value of the wrong JSON type is a typeMismatch at its coding path", arguments: [
        (#"{"transactionId":5}"#, ["transactionId"], "String"),
        (#"{"quantity":"1"}"#, ["quantity"], "Int32"),
        (#"{"price":true}"#, ["price"], "Int64"),
        (#"{"isUpgraded":1}"#, ["isUpgraded"], "Bool"),
        (#"{"environment":["Sandbox"]}"#, ["environment"], "String"),
        (#"{"offerType":"1"}"#, ["offerType"], "Int32"),
        (#"{"commitmentInfo":[]}"#, ["commitmentInfo"], "Dictionary<String, Any>"),
        (#"{"commitmentInfo":{"commitmentPrice":"9"}}"#, ["commitmentInfo", "commitmentPrice"], "Int64"),
        (#"{"advancedCommerceInfo":{"items":{}}}"#, ["advancedCommerceInfo", "items"], "Array<Any>"),
        (#"{"advancedCommerceInfo":{"items":[{"SKU":"a"},7]}}"#, ["advancedCommerceInfo", "items", "Index 1"], "Dictionary<String, Any>"),
        (#"{"advancedCommerceInfo":{"items":[{"refunds":[{"refundDate":"x"}]}]}}"#, ["advancedCommerceInfo", "items", "Index 0", "refunds", "Index 0", "refundDate"], "Double"),
    ])
    func typeMismatch(_ json: String, _ path: [String], _ type: String) throws {
        guard case .typeMismatch(let actual, let context) = Self.error(Array(json.utf8)) else {
            Issue.record("\(json) must be a typeMismatch")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == path, "\(json)")
        #expect(String(describing: actual) == type, "\(json)")
        #expect(Self.agreement(Transaction.self, Data(json.utf8)) == .bothFailed, "\(json)")
    }

    @Test("null and missing members of optional fields decode as nil; unknown members are ignored")
    func nullsAndUnknownKeys() throws {
        let json = #"{"transactionId":null,"quantity":null,"signedDate":null,"environment":null,"commitmentInfo":null,"advancedCommerceInfo":{"items":null},"unknownField":{"x":[1,2,{"y":null}],"z":1e999999,"w":"\u0000"},"price":7}"#
        let transaction = try Self.decodeTransaction(json)
        #expect(transaction.storedTransactionId == nil && transaction.quantity == nil && transaction.signedDate == nil)
        #expect(transaction.missingRequiredMembers.contains("transactionId"))
        #expect(transaction.storedEnvironment == nil && transaction.commitmentInfo == nil)
        #expect(transaction.advancedCommerceInfo?.items == nil)
        #expect(transaction.price == 7)
        #expect(Self.agreement(Transaction.self, Data(json.utf8)) == .bothDecoded)
        #expect(try Self.decodeTransaction("{}") == (try AppStoreJSON.makeDecoder().decode(Transaction.self, from: Data("{}".utf8))))
    }

    @Test("null where a value is required is valueNotFound; a missing required key is keyNotFound")
    func requiredValues() throws {
        struct Required: Decodable, Equatable {
            var name: String
            var items: [String]
        }
        for (json, path) in [(#"{"name":null,"items":[]}"#, ["name"]), (#"{"name":"a","items":["b",null]}"#, ["items", "Index 1"]),
                             (#"{"name":"a","items":null}"#, ["items"])] {
            guard case .valueNotFound(_, let context) = Self.error(Required.self, Array(json.utf8)) else {
                Issue.record("\(json) must be a valueNotFound")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == path, "\(json)")
            #expect(Self.agreement(Required.self, Data(json.utf8)) == .bothFailed, "\(json)")
        }
        guard case .keyNotFound(let key, let context) = Self.error(Required.self, Array(#"{"name":"a"}"#.utf8)) else {
            Issue.record("a missing key must be keyNotFound")
            return
        }
        #expect(key.stringValue == "items" && context.codingPath.isEmpty)
        #expect(Self.agreement([Required].self, Data(#"[{"name":"a","items":[]},null]"#.utf8)) == .bothFailed)
        #expect(Self.agreement([Required].self, Data(#"[{"name":"a","items":["x"]},{"name":"","items":[]}]"#.utf8)) == .bothDecoded)
    }

    /// A type that uses every container operation the decoder offers.
    struct ContainerTour: Decodable, Equatable {
        var keys: [String]
        var hasMissing: Bool
        var nilValue: Bool
        var nested: [Int]
        var nestedKeyed: Int
        var unkeyed: [String]
        var superValue: String?
        var superForKey: Int?
        var superForMissing: Bool

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            keys = container.allKeys.map(\.stringValue).sorted()
            hasMissing = container.contains(Key("missing"))
            nilValue = try container.decodeNil(forKey: Key("null"))
            var array = try container.nestedUnkeyedContainer(forKey: Key("array"))
            var nested: [Int] = []
            var unkeyed: [String] = []
            while !array.isAtEnd {
                if try array.decodeNil() {
                    unkeyed.append("null")
                } else if let count = array.count, count > 3, array.currentIndex == 1 {
                    var inner = try array.nestedUnkeyedContainer()
                    while !inner.isAtEnd { nested.append(try inner.decode(Int.self)) }
                } else if array.currentIndex == 2 {
                    let object = try array.nestedContainer(keyedBy: Key.self)
                    unkeyed.append(try object.decode(String.self, forKey: Key("k")))
                } else {
                    unkeyed.append(try String(describing: array.decode(Int.self)))
                }
            }
            self.nested = nested
            self.unkeyed = unkeyed
            nestedKeyed = try container.nestedContainer(keyedBy: Key.self, forKey: Key("object")).decode(Int.self, forKey: Key("n"))
            superValue = try container.superDecoder().singleValueContainer().decode(String?.self)
            superForKey = try container.superDecoder(forKey: Key("object")).container(keyedBy: Key.self).decode(Int.self, forKey: Key("n"))
            superForMissing = try container.superDecoder(forKey: Key("missing")).singleValueContainer().decodeNil()
        }
    }

    @Test("keyed, unkeyed, nested and super decoders behave as with JSONDecoder")
    func containers() throws {
        for json in [#"{"null":null,"array":[1,[2,3],{"k":"v"},null],"object":{"n":4},"super":"s"}"#,
                     #"{"null":0,"array":[1,[],{"k":""},5,null],"object":{"n":-1}}"#] {
            #expect(Self.agreement(ContainerTour.self, Data(json.utf8)) == .bothDecoded, "\(json)")
        }
        let tour = try AppStoreJSON.decode(ContainerTour.self, from: Data(#"{"null":null,"array":[1,[2,3],{"k":"v"},null],"object":{"n":4},"super":"s"}"#.utf8))
        #expect(tour.keys == ["array", "null", "object", "super"] && !tour.hasMissing && tour.nilValue)
        #expect(tour.nested == [2, 3] && tour.nestedKeyed == 4 && tour.unkeyed == ["1", "v", "null"])
        #expect(tour.superValue == "s" && tour.superForKey == 4 && tour.superForMissing)
        // Errors inside nested containers, and reading past the end of an array.
        for json in [#"{"null":null,"array":[1,[2,"x"],{"k":"v"},null],"object":{"n":4}}"#, #"{"array":[]}"#,
                     #"{"null":null,"array":[1,[2],{"k":1}],"object":{"n":4}}"#, #"{"null":null,"array":[],"object":null}"#,
                     #"{"null":null,"array":{},"object":{}}"#] {
            #expect(Self.agreement(ContainerTour.self, Data(json.utf8)) == .bothFailed, "\(json)")
        }
    }

    @Test("top-level values other than objects decode as with JSONDecoder")
    func topLevelFragments() throws {
        #expect(try AppStoreJSON.decode(Int.self, from: Data(" 5 ".utf8)) == 5)
        #expect(try AppStoreJSON.decode(String.self, from: Data(#""a""#.utf8)) == "a")
        #expect(try AppStoreJSON.decode([Int32?].self, from: Data("[1,null,-3]".utf8)) == [1, nil, -3])
        #expect(try AppStoreJSON.decode(Bool?.self, from: Data("null".utf8)) == nil)
        #expect(Self.agreement([String: Int64].self, Data(#"{"a":1,"b":-2}"#.utf8)) == .bothDecoded)
        #expect(Self.agreement([Date].self, Data("[0,1.5,-2e3]".utf8)) == .bothDecoded)
    }

    @Test("the verifier's payload decoder: invalid JSON is invalidJSON, a field that does not fit is invalidPayload")
    func payloadDecoderCodes() throws {
        for (json, code) in [("", SignedDataDecodingError.Code.invalidJSON), ("[1]", .invalidJSON), ("\u{FEFF}{}", .invalidJSON),
                             (#"{"quantity":1,"quantity":1}"#, .invalidJSON), (#"{"quantity":1,}"#, .invalidJSON),
                             (#"{"quantity":1.5}"#, .invalidPayload), (#"{"quantity":"1"}"#, .invalidPayload),
                             (#"{"signedDate":1e400}"#, .invalidPayload)] {
            do {
                _ = try PayloadDecoder.decode(Transaction.self, from: Data(json.utf8))
                Issue.record("\(json) must be refused")
            } catch {
                #expect(error.code == code, "\(json): \(error.message)")
            }
        }
        let (transaction, document) = try PayloadDecoder.decode(Transaction.self, from: Data(#" {"quantity":2,"exp":1}"#.utf8))
        #expect(transaction.quantity == 2)
        #expect(document.member("exp", in: 0) != nil)
    }

    // MARK: - Agreement with JSONDecoder

    /// How the two decoders' outcomes on one document compare.
    enum Agreement: Equatable, CustomStringConvertible {
        case bothDecoded
        case bothFailed
        case differ(String)

        var description: String {
            switch self {
            case .bothDecoded: "both decoded the same value"
            case .bothFailed: "both failed the same way"
            case .differ(let why): why
            }
        }
    }

    /// What a decoding error says, for comparing two decoders' errors.
    struct ErrorSummary: Equatable, CustomStringConvertible {
        var kind: String
        var path: [String]
        var type: String

        init(_ error: any Error) {
            func names(_ context: DecodingError.Context) -> [String] { context.codingPath.map(\.stringValue) }
            switch error as? DecodingError {
            case .typeMismatch(let type, let context)?: (kind, path, self.type) = ("typeMismatch", names(context), "\(type)")
            case .valueNotFound(let type, let context)?: (kind, path, self.type) = ("valueNotFound", names(context), "\(type)")
            case .keyNotFound(let key, let context)?: (kind, path, type) = ("keyNotFound", names(context) + [key.stringValue], "")
            case .dataCorrupted(let context)?: (kind, path, type) = ("dataCorrupted", names(context), "")
            default: (kind, path, type) = ("\(error)", [], "")
            }
        }

        var description: String { "\(kind)(\(type)) at \(path)" }
    }

    /// Decodes `json` with both decoders and compares the outcomes: the same value, or the same kind of
    /// error at the same coding path. Where Foundation calls the JSON invalid (which it also does for a
    /// number it cannot represent), ours must fail with `dataCorrupted`, at the field.
    static func agreement<T: Decodable & Equatable>(_ type: T.Type, _ json: Data) -> Agreement {
        let ours = Result { try AppStoreJSON.decode(T.self, from: json) }
        let theirs = Result { try AppStoreJSON.makeDecoder().decode(T.self, from: json) }
        switch (ours, theirs) {
        case (.success(let ours), .success(let theirs)):
            return ours == theirs ? .bothDecoded : .differ("values differ: \(ours) against JSONDecoder's \(theirs)")
        case (.failure(let ours), .failure(let theirs)):
            let (ourSummary, theirSummary) = (ErrorSummary(ours), ErrorSummary(theirs))
            if theirSummary.kind == "dataCorrupted", theirSummary.path.isEmpty {
                return ourSummary.kind == "dataCorrupted" ? .bothFailed : .differ("JSONDecoder: invalid JSON; ours: \(ours)")
            }
            return ourSummary == theirSummary ? .bothFailed : .differ("errors differ: ours \(ourSummary), JSONDecoder's \(theirSummary) (\(theirs))")
        case (.failure(let ours), .success):
            return .differ("only ours failed: \(ours)")
        case (.success, .failure(let theirs)):
            return .differ("only JSONDecoder failed: \(theirs)")
        }
    }

    /// Compares both decoders on `json` for every payload model; returns how many models decoded.
    static func agreementOnEveryModel(_ json: Data, _ label: String) -> Int {
        let outcomes = [
            agreement(Transaction.self, json), agreement(RenewalInfo.self, json), agreement(AppTransaction.self, json),
            agreement(ResponseBodyV2DecodedPayload.self, json), agreement(DecodedRealtimeRequestBody.self, json),
            agreement(AppData.self, json),
        ]
        for outcome in outcomes {
            if case .differ = outcome { Issue.record("\(label): \(outcome)") }
        }
        return outcomes.count { $0 == .bothDecoded }
    }

    /// The payload of every shipped JWS vector whose payload segment is base64url.
    static let vectorPayloads: [(name: String, json: Data)] = {
        let directory = TestPaths.testVector("jws")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".jws") }.sorted()
        return names.compactMap { name in
            guard let text = try? TestPaths.text(directory.appendingPathComponent(name)) else { return nil }
            let segments = text.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count >= 2, let json = base64URLDecoded(String(segments[1])) else { return nil }
            return (name, json)
        }
    }()

    @Test("every shipped vector's payload decodes as with JSONDecoder, for every model")
    func agreesWithFoundationOnVectors() throws {
        #expect(Self.vectorPayloads.count >= 80)
        var decoded = 0
        for (name, json) in Self.vectorPayloads {
            if name == "payload-duplicate-keys.jws" {
                // The documented difference: refused here, first value wins in Foundation.
                #expect(Self.corruption(json: String(decoding: json, as: UTF8.self))?.debugDescription.contains("duplicate key \"bundleId\"") == true)
                continue
            }
            decoded += Self.agreementOnEveryModel(json, name)
        }
        #expect(decoded >= 60)
        let transaction = try #require(Self.vectorPayloads.first { $0.name == "transaction-valid.jws" })
        #expect(try AppStoreJSON.decode(Transaction.self, from: transaction.json).storedTransactionId != nil)
    }

    static let modelFiles: [URL] = {
        let directory = TestPaths.sharedFile("vectors/apple/models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }()

    @Test("Apple's sample payloads decode as with JSONDecoder, for every model", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func agreesWithFoundationOnAppleSamples() throws {
        #expect(Self.modelFiles.count >= 10)
        for file in Self.modelFiles {
            let json = try Data(contentsOf: file)
            let name = file.lastPathComponent
            #expect(Self.agreementOnEveryModel(json, name) >= 1, "\(name) decodes as no model")
            // Each sample decodes as its own model.
            if name.hasPrefix("signedTransaction") {
                #expect(Self.agreement(Transaction.self, json) == .bothDecoded, "\(name)")
                #expect(try AppStoreJSON.decode(Transaction.self, from: json).storedTransactionId != nil, "\(name)")
            } else if name == "signedRenewalInfo.json" {
                #expect(try AppStoreJSON.decode(RenewalInfo.self, from: json).originalTransactionId != nil, "\(name)")
            } else if name == "appTransaction.json" {
                #expect(try AppStoreJSON.decode(AppTransaction.self, from: json).bundleId != nil, "\(name)")
            } else if name.hasSuffix("Notification.json") {
                #expect(try AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: json).notificationType != nil, "\(name)")
            }
        }
    }

    @Test("2,000 random transaction-shaped documents: both decoders agree, except where documented")
    func randomDifferential() throws {
        var generator = RandomPayloadJSON(seed: 0x5EED_0F_7500)
        var tally: [String: Int] = [:]
        for _ in 0..<2_000 {
            let document = generator.document()
            let json = Data(document.text.utf8)
            let outcome = Self.agreement(Transaction.self, json)
            if document.hasDuplicateKey {
                // Documented: we refuse the document; Foundation keeps the first value.
                let context = Self.corruption(json: document.text)
                #expect(context?.codingPath.isEmpty == true && context?.debugDescription.contains("duplicate key") == true, "\(document.text)")
                tally["duplicate key (documented)", default: 0] += 1
                continue
            }
            if document.hasMisreadNumber, case .differ(let why) = outcome, !why.hasPrefix("values differ") {
                // Documented: a number JSONDecoder misreads (see RandomPayloadJSON.Document); one of
                // the two decoders refuses it.
                tally["misread number (documented)", default: 0] += 1
                continue
            }
            if case .differ = outcome { Issue.record("\(document.text): \(outcome)") }
            tally["\(outcome)", default: 0] += 1
        }
        print("random differential: \(tally.sorted { $0.key < $1.key })")
        // The documents exercise both outcomes and both documented differences.
        #expect(tally[Agreement.bothDecoded.description, default: 0] >= 300, "\(tally)")
        #expect(tally[Agreement.bothFailed.description, default: 0] >= 300, "\(tally)")
        #expect(tally["duplicate key (documented)", default: 0] >= 20, "\(tally)")
        #expect(tally["misread number (documented)", default: 0] >= 5, "\(tally)")
    }
}

/// Random JSON documents shaped like transactions (Transaction's member names, nested objects and
/// arrays), with values of the documented type most of the time and of any type otherwise, numbers
/// in every syntax, escaped names and strings, and now and then a duplicate key.
struct RandomPayloadJSON {
    /// The JSON type a member has in the model.
    indirect enum Shape: Sendable {
        case string, date, int32, int64, bool, stringEnumeration, int32Enumeration, any
        case object([(String, Shape)])
        case array(Shape)
    }

    /// One generated document.
    struct Document {
        var text: String
        var hasDuplicateKey: Bool
        /// Whether it has a number JSONDecoder misreads: one no integer or Double holds exactly
        /// (Foundation rounds it through a Double, or calls it invalid JSON), or zero with a positive
        /// exponent (`0e5`, which Foundation's Double reading calls invalid JSON).
        var hasMisreadNumber: Bool
    }

    static let offer: Shape = .object([("periodCount", .int32), ("price", .int64), ("period", .stringEnumeration), ("reason", .stringEnumeration)])
    static let refund: Shape = .object([("refundAmount", .int64), ("refundDate", .date), ("refundReason", .stringEnumeration), ("refundType", .stringEnumeration)])
    static let item: Shape = .object([
        ("SKU", .string), ("description", .string), ("displayName", .string), ("offer", offer), ("price", .int64),
        ("refunds", .array(refund)), ("revocationDate", .date),
    ])
    static let transaction: [(String, Shape)] = [
        ("transactionId", .string), ("originalTransactionId", .string), ("webOrderLineItemId", .string), ("bundleId", .string),
        ("productId", .string), ("subscriptionGroupIdentifier", .string), ("purchaseDate", .date), ("originalPurchaseDate", .date),
        ("expiresDate", .date), ("quantity", .int32), ("type", .stringEnumeration), ("appAccountToken", .string),
        ("inAppOwnershipType", .stringEnumeration), ("signedDate", .date), ("revocationReason", .int32Enumeration),
        ("revocationDate", .date), ("isUpgraded", .bool), ("offerType", .int32Enumeration), ("offerIdentifier", .string),
        ("environment", .stringEnumeration), ("storefront", .string), ("storefrontId", .string),
        ("transactionReason", .stringEnumeration), ("currency", .string), ("price", .int64), ("offerDiscountType", .stringEnumeration),
        ("appTransactionId", .string), ("offerPeriod", .string), ("revocationType", .stringEnumeration),
        ("revocationPercentage", .int32), ("billingPlanType", .stringEnumeration), ("deviceVerification", .string),
        ("deviceVerificationNonce", .string),
        ("commitmentInfo", .object([("billingPeriodNumber", .int32), ("commitmentExpiresDate", .date), ("commitmentPrice", .int64), ("totalBillingPeriods", .int32)])),
        ("advancedCommerceInfo", .object([
            ("descriptors", .object([("description", .string), ("displayName", .string)])), ("estimatedTax", .int64),
            ("items", .array(item)), ("period", .stringEnumeration), ("requestReferenceId", .string), ("taxCode", .string),
            ("taxExclusivePrice", .int64), ("taxRate", .string),
        ])),
        ("unknownField", .any), ("x", .any),
    ]

    private var random: SplitMix64
    private var hasDuplicateKey = false
    private var hasMisreadNumber = false

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func document() -> Document {
        hasDuplicateKey = false
        hasMisreadNumber = false
        let text = object(Self.transaction, depth: 0, members: 0...6)
        return Document(text: text, hasDuplicateKey: hasDuplicateKey, hasMisreadNumber: hasMisreadNumber)
    }

    private mutating func chance(_ percent: Int) -> Bool { random.below(100) < percent }

    private mutating func object(_ fields: [(String, Shape)], depth: Int, members: ClosedRange<Int>) -> String {
        let count = members.lowerBound + random.below(members.count)
        var used: [String] = []
        var parts: [String] = []
        for _ in 0..<count {
            var (name, shape) = random.pick(fields)
            if used.contains(name) {
                // Usually pick another member; now and then, keep the duplicate.
                guard chance(15) else { continue }
                hasDuplicateKey = true
            }
            if chance(3), let duplicate = used.last {
                name = duplicate
                shape = .any
                hasDuplicateKey = true
            }
            used.append(name)
            parts.append(jsonName(name) + ":" + value(shape, depth: depth + 1))
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A member name, now and then with a character written as a \u escape.
    private mutating func jsonName(_ name: String) -> String {
        guard chance(5), let scalar = name.unicodeScalars.first else { return "\"" + name + "\"" }
        return "\"\\u" + String(format: "%04x", scalar.value) + name.unicodeScalars.dropFirst().map(String.init).joined() + "\""
    }

    private mutating func value(_ shape: Shape, depth: Int) -> String {
        if chance(8) { return "null" }
        if chance(20) { return anyValue(depth: depth) }
        switch shape {
        case .string: return string()
        case .date: return dateNumber()
        case .int32: return integer(bits: 32)
        case .int64: return integer(bits: 64)
        case .bool: return chance(50) ? "true" : "false"
        case .stringEnumeration: return chance(70) ? random.pick(["\"Sandbox\"", "\"Production\"", "\"Auto-Renewable Subscription\"", "\"PURCHASE\"", "\"\""]) : string()
        case .int32Enumeration: return integer(bits: 32)
        case .any: return anyValue(depth: depth)
        case .object(let fields): return object(fields, depth: depth, members: 0...4)
        case .array(let element):
            let count = random.below(4)
            return "[" + (0..<count).map { _ in value(element, depth: depth + 1) }.joined(separator: ",") + "]"
        }
    }

    private mutating func anyValue(depth: Int) -> String {
        switch random.below(depth > 3 ? 5 : 7) {
        case 0: return string()
        case 1: return integer(bits: chance(50) ? 32 : 64)
        case 2: return dateNumber()
        case 3: return random.pick(["true", "false", "null"])
        case 4: return random.pick(["[]", "{}", "\"\"", "0"])
        case 5: return "[" + (0..<random.below(3)).map { _ in anyValue(depth: depth + 1) }.joined(separator: ",") + "]"
        default: return object([("a", .any), ("quantity", .any), ("SKU", .any), ("", .any)], depth: depth, members: 0...3)
        }
    }

    private mutating func string() -> String {
        let pieces = ["a", "Z", "0", " ", "é", "😀", "𝄞", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\\u0000", "\\t", "\u{7F}", "com.example.app"]
        return "\"" + (0..<random.below(6)).map { _ in random.pick(pieces) }.joined() + "\""
    }

    /// Digits of a random number below 10^15, so that every spelling of it below is exact in a Double.
    private mutating func digits() -> String {
        String(random.next() % [10, 1_000, 100_000, 2_000_000_000, 1_000_000_000_000_000][random.below(5)])
    }

    private mutating func integer(bits: Int) -> String {
        switch random.below(12) {
        case 0, 1, 2: return (chance(20) ? "-" : "") + digits()
        case 3:
            return bits == 32
                ? random.pick(["2147483647", "-2147483648", "2147483648", "-2147483649", "4294967296"])
                : random.pick(["9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "18446744073709551616"])
        case 4: return (chance(20) ? "-" : "") + String(repeating: "9", count: 1 + random.below(22))
        case 5: return digits() + random.pick([".0", ".000", ".5", ".25", ".1"])
        case 6: return digits() + random.pick(["e0", "e1", "E2", "e+3", "e-1", "e-2", "E-20", "e18", "e400"])
        case 7: return digits() + "." + digits() + random.pick(["", "e3", "E-3", "e10"])
        case 8:
            let number = random.pick(["-0", "-0.0", "0e5", "0E1", "0.0e-3", "0", "1E-0", "1697679936049"])
            // Foundation's Double reading calls zero with a positive exponent invalid JSON.
            if number == "0e5" || number == "0E1" { hasMisreadNumber = true }
            return number
        case 9: return inexactNumber()
        default: return String(random.below(200))
        }
    }

    private mutating func dateNumber() -> String {
        switch random.below(6) {
        case 0: return "1697679936049.7297"
        case 1: return String(1_600_000_000_000 + random.below(200_000_000_000))
        case 2: return random.pick(["1.7e12", "-1000", "0", "-0", "4.9e-324", "1e400", "-1e400", "1e-400", "1E5"])
        case 3: return "\"" + String(random.below(1_000_000)) + "\""
        default: return integer(bits: 64)
        }
    }

    /// A number that no integer type or Double holds exactly; Foundation rounds it through a Double
    /// (and may accept it), we refuse it or decode it exactly.
    private mutating func inexactNumber() -> String {
        hasMisreadNumber = true
        return random.pick(["1.0000000000000000001", "1e-400", "9223372036854775807.0", "9.223372036854775807e18",
                            "9007199254740993.5", "-9223372036854775808.0", "2147483647.0000000000000001"])
    }
}
