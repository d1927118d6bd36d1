import AppStoreVerificationTestSupport
import COpenSSL
import Foundation
import Testing
@testable import AppStoreVerification

extension AppleOracle {
    /// Generates the inputs from a seed.
    struct OracleInputGenerator {
        var random: SplitMix64

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        private static let segmentAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        private static let noiseAlphabet = segmentAlphabet + Array("+/=!*~$%".utf8)

        /// Traits of shipped vectors that inspection cannot see; kept by the vector as it is and by the
        /// mutations that change only its signature segment.
        static let shippedVectorTraits: [String: Set<String>] = [
            "payload-quantity-fraction": ["payloadFieldOfWrongJSONType"],
        ]

        private func input(_ jws: String, _ origin: String, _ mutation: String, traits: Set<String> = [], mustVerify: Bool = false) -> OracleInput {
            OracleInput(jws: jws, origin: origin, mutation: mutation, traits: traits.union(inspectedTraits(of: jws)), mustVerify: mustVerify)
        }

        // MARK: Group 1: the shipped vectors, with their original signatures

        struct Vector {
            var name: String
            var jws: String
            var segments: JWSSegments
            var header: [String: Any]?
            var x5c: [String]
            var isSeed: Bool
        }

        /// Every `transaction` vector as it is, plus `mutations` mutations of them.
        mutating func shippedVectorInputs(mutations: Int) throws -> [OracleInput] {
            let standardOptions: (ManifestVector) -> Bool = {
                $0.options.roots == ["pki/root.der"] && $0.options.bundleId == "com.example.app"
                    && $0.options.environment == "Sandbox" && ($0.options.effectiveDate ?? "signed") == "signed"
                    && $0.options.appAppleId == nil
            }
            var vectors: [Vector] = []
            // A vector with white space inside (a line break in a segment) cannot be one line of the
            // oracle's input, which also trims each line: those few are left to the manifest tests.
            let transactionVectors = ManifestVector.all.filter { $0.type == "transaction" }
            var texts: [String: String] = [:]
            for entry in transactionVectors {
                let jws = try TestPaths.text(TestPaths.testVector(entry.file))
                if !jws.contains(where: { $0.isWhitespace || $0.isNewline }) { texts[entry.name] = jws }
            }
            for entry in transactionVectors {
                guard let jws = texts[entry.name] else { continue }
                guard let segments = JWSSegments(jws) else { continue }  // two-segments: used as is below
                let header = base64URLDecoded(segments.header).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                let x5c = (header?["x5c"] as? [Any])?.compactMap { $0 as? String } ?? []
                vectors.append(Vector(name: entry.name, jws: jws, segments: segments, header: header, x5c: x5c,
                                      isSeed: entry.expected.status == "verified" && standardOptions(entry)))
            }
            let seeds = vectors.filter(\.isSeed)
            try #require(seeds.count >= 2, "the manifest's verified transaction vectors with the standard options are the seeds")

            var inputs: [OracleInput] = []
            for entry in transactionVectors {
                guard let jws = texts[entry.name] else { continue }
                let isSeed = vectors.first(where: { $0.name == entry.name })?.isSeed ?? false
                inputs.append(input(jws, entry.name, "asIs", traits: Self.shippedVectorTraits[entry.name] ?? [], mustVerify: isSeed))
            }

            // Certificates to swap in: every certificate of every vector, and the shipped PKI files.
            var pool: [String] = []
            for vector in vectors { for certificate in vector.x5c where !pool.contains(certificate) { pool.append(certificate) } }
            for file in ["pki/other-root.der", "pki/root.der", "pki/intermediate.der", "pki/leaf.der"] {
                let text = try Data(contentsOf: TestPaths.testVector(file)).base64EncodedString()
                if !pool.contains(text) { pool.append(text) }
            }
            let signatures = vectors.map(\.segments.signature).filter { !$0.isEmpty }

            for _ in 0..<mutations {
                // Three in five mutate a seed, the rest any transaction vector.
                let vector = random.below(5) < 3 ? random.pick(seeds) : random.pick(vectors)
                let (jws, kind) = mutate(vector, pool: pool, signatures: signatures)
                let inherited = kind.hasPrefix("signature.") ? Self.shippedVectorTraits[vector.name] ?? [] : []
                inputs.append(input(jws, vector.name, kind, traits: inherited))
            }
            return inputs
        }

        private mutating func mutate(_ vector: Vector, pool: [String], signatures: [String]) -> (String, String) {
            var segments = vector.segments
            let kinds = [
                "signature.replaceChar", "signature.deleteChar", "signature.insertChar", "signature.lastCharNonCanonical",
                "signature.padded", "signature.standardAlphabet", "signature.bitFlip", "signature.truncated",
                "signature.extended", "signature.highS", "signature.der", "signature.swapRS", "signature.rZero",
                "signature.sEqualsN", "signature.fromOtherVector", "signature.empty",
                "header.replaceChar", "header.deleteChar", "header.insertChar", "header.alg", "header.x5cDropped",
                "header.x5cReordered", "header.x5cDuplicated", "header.x5cSwappedIn", "header.x5c2Replaced",
                "header.certTruncated", "header.certTrailingBytes", "header.x5cRemoved", "header.x5cNotArray",
                "header.crit", "header.kid", "header.reencoded",
                "payload.replaceChar", "payload.deleteChar", "payload.insertChar", "payload.bundleId",
                "payload.environment", "payload.signedDateBeforeLeaf", "payload.signedDateAfterLeaf",
                "payload.signedDateRemoved", "payload.reencoded",
                "structure.noSignature", "structure.extraSegment", "structure.swappedHeaderAndPayload",
                "structure.emptyHeader", "structure.emptyPayload",
            ]
            let kind = random.pick(kinds)
            switch kind {
            case "signature.replaceChar": segments.signature = replaceCharacter(in: segments.signature)
            case "signature.deleteChar": segments.signature = deleteCharacter(in: segments.signature)
            case "signature.insertChar": segments.signature = insertCharacter(in: segments.signature)
            case "signature.lastCharNonCanonical": segments.signature = nonCanonicalLastCharacter(segments.signature)
            case "signature.padded":
                let count = random.below(2) + 1
                segments.signature += String(repeating: "=", count: count)
            case "signature.standardAlphabet":
                segments.signature = segments.signature.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            case "signature.bitFlip":
                if var bytes = base64URLDecoded(segments.signature).map(Array.init), !bytes.isEmpty {
                    let bit = random.below(bytes.count * 8)
                    bytes[bit / 8] ^= UInt8(1 << (bit % 8))
                    segments.signature = base64URLEncoded(Data(bytes))
                }
            case "signature.truncated":
                if let bytes = base64URLDecoded(segments.signature).map(Array.init), !bytes.isEmpty {
                    segments.signature = base64URLEncoded(Data(bytes.dropLast(random.below(min(bytes.count, 33)) + 1)))
                }
            case "signature.extended":
                if let bytes = base64URLDecoded(segments.signature).map(Array.init) {
                    segments.signature = base64URLEncoded(Data(bytes + random.bytes(random.below(8) + 1)))
                }
            case "signature.highS", "signature.der", "signature.swapRS", "signature.rZero", "signature.sEqualsN":
                if let bytes = base64URLDecoded(segments.signature).map(Array.init), bytes.count == 64 {
                    let r = Array(bytes[0..<32]), s = Array(bytes[32..<64])
                    let changed: [UInt8]
                    switch kind {
                    case "signature.highS": changed = r + subtract32(p256Order, s)
                    case "signature.der": changed = derSignature(raw: bytes)
                    case "signature.swapRS": changed = s + r
                    case "signature.rZero": changed = [UInt8](repeating: 0, count: 32) + s
                    default: changed = r + p256Order
                    }
                    segments.signature = base64URLEncoded(Data(changed))
                }
            case "signature.fromOtherVector": segments.signature = random.pick(signatures)
            case "signature.empty": segments.signature = ""
            case "header.replaceChar": segments.header = replaceCharacter(in: segments.header)
            case "header.deleteChar": segments.header = deleteCharacter(in: segments.header)
            case "header.insertChar": segments.header = insertCharacter(in: segments.header)
            case "payload.replaceChar": segments.payload = replaceCharacter(in: segments.payload)
            case "payload.deleteChar": segments.payload = deleteCharacter(in: segments.payload)
            case "payload.insertChar": segments.payload = insertCharacter(in: segments.payload)
            case "structure.noSignature": return ("\(segments.header).\(segments.payload)", kind)
            case "structure.extraSegment": return (segments.text + "." + segments.signature, kind)
            case "structure.swappedHeaderAndPayload": swap(&segments.header, &segments.payload)
            case "structure.emptyHeader": segments.header = ""
            case "structure.emptyPayload": segments.payload = ""
            case _ where kind.hasPrefix("header."):
                segments.header = mutatedHeader(vector, kind: kind, pool: pool)
            case _ where kind.hasPrefix("payload."):
                segments.payload = mutatedPayload(segments.payload, kind: kind)
            default:
                preconditionFailure("unhandled mutation \(kind)")
            }
            return (segments.text, kind)
        }

        private mutating func mutatedHeader(_ vector: Vector, kind: String, pool: [String]) -> String {
            var alg = (vector.header?["alg"]).map(Self.rawJSON) ?? jsonString("ES256")
            var x5c: [String]? = vector.x5c
            var extra: [(String, String)] = []
            var x5cRaw: String?
            switch kind {
            case "header.alg":
                alg = random.pick([jsonString("none"), jsonString("HS256"), jsonString("ES384"), jsonString("RS256"), jsonString("es256"),
                                   jsonString("ES256 "), jsonString(""), "null", "256", jsonArray([jsonString("ES256")])])
            case "header.x5cDropped":
                if var chain = x5c, !chain.isEmpty { chain.remove(at: random.below(chain.count)); x5c = chain }
            case "header.x5cReordered":
                if var chain = x5c, chain.count >= 2 {
                    let i = random.below(chain.count)
                    var j = random.below(chain.count)
                    if i == j { j = (j + 1) % chain.count }
                    chain.swapAt(i, j)
                    x5c = chain
                }
            case "header.x5cDuplicated":
                if var chain = x5c, !chain.isEmpty {
                    let i = random.below(chain.count)
                    chain.insert(chain[i], at: random.below(chain.count + 1))
                    x5c = chain
                }
            case "header.x5cSwappedIn":
                if var chain = x5c, !chain.isEmpty { chain[random.below(chain.count)] = random.pick(pool); x5c = chain }
            case "header.x5c2Replaced":
                if var chain = x5c, chain.count >= 3 {
                    let replacement = random.below(3)
                    chain[2] = replacement == 0 ? random.pick(pool) : replacement == 1 ? Data(random.bytes(40)).base64EncodedString() : "not base64!"
                    x5c = chain
                }
            case "header.certTruncated", "header.certTrailingBytes":
                if var chain = x5c, !chain.isEmpty {
                    let i = random.below(chain.count)
                    if var der = Data(base64Encoded: chain[i]).map(Array.init), !der.isEmpty {
                        if kind == "header.certTruncated" {
                            der.removeLast(random.below(min(der.count, 64)) + 1)
                        } else {
                            der += random.below(2) == 0 ? [UInt8](repeating: 0, count: random.below(4) + 1) : random.bytes(random.below(16) + 1)
                        }
                        chain[i] = Data(der).base64EncodedString()
                        x5c = chain
                    }
                }
            case "header.x5cRemoved": x5c = nil
            case "header.x5cNotArray":
                x5c = nil
                x5cRaw = random.pick([jsonString(vector.x5c.first ?? "MII"), "{}", "null", "[]", "3"])
            case "header.crit": extra = [("crit", jsonArray([jsonString("exp")])), ("exp", "1")]
            case "header.kid": extra = [("kid", random.pick([jsonString("Apple_Key"), "42", "null"]))]
            default: break  // header.reencoded: the same content, written by us
            }
            var fields: [(String, String)] = [("alg", alg)]
            if let x5c { fields.append(("x5c", jsonArray(x5c.map(jsonString)))) }
            if let x5cRaw { fields.append(("x5c", x5cRaw)) }
            return base64URLEncoded(Data(RawJSONObject(fields + extra).text.utf8))
        }

        private mutating func mutatedPayload(_ segment: String, kind: String) -> String {
            guard let data = base64URLDecoded(segment),
                  var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return replaceCharacter(in: segment) }
            switch kind {
            case "payload.bundleId": object["bundleId"] = random.pick(["com.other.app", "com.example.App", "", "com.example.app "])
            case "payload.environment": object["environment"] = random.pick(["Production", "sandbox", "Xcode", "LocalTesting", ""])
            case "payload.signedDateBeforeLeaf": object["signedDate"] = Int64(1_717_200_000_000)  // 2024-06-01
            case "payload.signedDateAfterLeaf": object["signedDate"] = Int64(2_506_118_400_000)  // 2049-06-01
            case "payload.signedDateRemoved": object["signedDate"] = nil
            default: break  // payload.reencoded
            }
            guard let encoded = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
                return replaceCharacter(in: segment)
            }
            return base64URLEncoded(encoded)
        }

        private static func rawJSON(_ value: Any) -> String {
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes]) else { return "null" }
            return String(decoding: data, as: UTF8.self)
        }

        private mutating func replaceCharacter(in text: String) -> String {
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { return String(UnicodeScalar(random.pick(Self.noiseAlphabet))) }
            let index = random.below(bytes.count)
            var replacement = random.pick(Self.noiseAlphabet)
            while replacement == bytes[index] { replacement = random.pick(Self.noiseAlphabet) }
            bytes[index] = replacement
            return String(decoding: bytes, as: UTF8.self)
        }

        private mutating func deleteCharacter(in text: String) -> String {
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { return text }
            bytes.remove(at: random.below(bytes.count))
            return String(decoding: bytes, as: UTF8.self)
        }

        private mutating func insertCharacter(in text: String) -> String {
            var bytes = Array(text.utf8)
            bytes.insert(random.pick(Self.noiseAlphabet), at: random.below(bytes.count + 1))
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The same bytes, with the unused low bits of the last character set (a non-canonical encoding).
        private mutating func nonCanonicalLastCharacter(_ text: String) -> String {
            var bytes = Array(text.utf8)
            let unusedBits = (bytes.count * 6) % 8
            guard unusedBits > 0, let last = bytes.last, let value = Self.segmentAlphabet.firstIndex(of: last) else {
                return replaceCharacter(in: text)
            }
            let mask = (1 << unusedBits) - 1
            let changed = (value & ~mask) | (random.below(mask) + 1)
            bytes[bytes.count - 1] = Self.segmentAlphabet[changed]
            return String(decoding: bytes, as: UTF8.self)
        }

        // MARK: Group 2: a PKI minted for this run, variants re-signed

        mutating func mintedInputs(_ pki: MintedPKI) throws -> [OracleInput] {
            var inputs: [OracleInput] = []
            let b64 = { (der: Data) in der.base64EncodedString() }
            let leaf = b64(pki.leaf.der), intermediate = b64(pki.intermediate.der), root = b64(pki.root.der)
            let goodChain = jsonArray([leaf, intermediate, root].map(jsonString))
            let goodHeader = RawJSONObject([("alg", jsonString("ES256")), ("x5c", goodChain)])
            let goodPayload = MintedPKI.transactionPayload

            /// Signs `header`.`payload` (as written) with `signer` and records the input.
            func add(_ mutation: String, header: RawJSONObject = goodHeader, payload: RawJSONObject = goodPayload,
                     headerBytes: Data? = nil, payloadBytes: Data? = nil,
                     headerSegment: ((Data) -> String)? = nil, payloadSegment: ((Data) -> String)? = nil,
                     signer: MintedPKI.Key? = nil, signature: (([UInt8]) -> String)? = nil,
                     traits: Set<String> = [], mustVerify: Bool = false) throws {
                let headerText = headerSegment.map { $0(headerBytes ?? Data(header.text.utf8)) } ?? base64URLEncoded(headerBytes ?? Data(header.text.utf8))
                let payloadText = payloadSegment.map { $0(payloadBytes ?? Data(payload.text.utf8)) } ?? base64URLEncoded(payloadBytes ?? Data(payload.text.utf8))
                let signingInput = "\(headerText).\(payloadText)"
                let raw = try (signer ?? pki.leafKey).signES256(Array(signingInput.utf8))
                let signatureText = signature.map { $0(raw) } ?? base64URLEncoded(Data(raw))
                inputs.append(input("\(signingInput).\(signatureText)", "minted", mutation, traits: traits, mustVerify: mustVerify))
            }
            func header(x5c: [String]) -> RawJSONObject { goodHeader.replacing("x5c", with: jsonArray(x5c)) }
            func withTrailing(_ der: Data, _ bytes: [UInt8]) -> String { b64(der + Data(bytes)) }

            // The good input, and the same with a high-S signature: both must verify everywhere.
            try add("valid", mustVerify: true)
            try add("signature.highS", signature: { base64URLEncoded(Data(Array($0[0..<32]) + subtract32(p256Order, Array($0[32..<64])))) }, mustVerify: true)
            try add("signature.der", signature: { base64URLEncoded(Data(derSignature(raw: $0))) })
            try add("signature.otherKey", signer: pki.otherLeafKey)
            try add("signature.padded", signature: { base64URLEncoded(Data($0)) + "==" })

            // x5c[2]: never read by Apple's library, never used by ours.
            try add("x5c2.shippedRoot", header: header(x5c: [leaf, intermediate, b64(try Data(contentsOf: TestPaths.testVector("pki/root.der")))].map(jsonString)))
            try add("x5c2.otherRoot", header: header(x5c: [leaf, intermediate, b64(try Data(contentsOf: TestPaths.testVector("pki/other-root.der")))].map(jsonString)))
            try add("x5c2.leaf", header: header(x5c: [leaf, intermediate, leaf].map(jsonString)))
            try add("x5c2.intermediate", header: header(x5c: [leaf, intermediate, intermediate].map(jsonString)))
            try add("x5c2.rogueRoot", header: header(x5c: [leaf, intermediate, b64(pki.rogueRoot.der)].map(jsonString)))
            try add("x5c2.randomBytes", header: header(x5c: [jsonString(leaf), jsonString(intermediate), jsonString(b64(Data(random.bytes(64))))]))
            try add("x5c2.emptyString", header: header(x5c: [jsonString(leaf), jsonString(intermediate), jsonString("")]))
            try add("x5c2.trailingBytes", header: header(x5c: [leaf, intermediate, withTrailing(pki.root.der, [0, 0])].map(jsonString)))
            try add("x5c2.truncated", header: header(x5c: [leaf, intermediate, b64(pki.root.der.prefix(100))].map(jsonString)))
            try add("x5c2.notBase64", header: header(x5c: [jsonString(leaf), jsonString(intermediate), jsonString("not base64!")]))
            try add("x5c2.unpaddedBase64", header: header(x5c: [jsonString(leaf), jsonString(intermediate), jsonString("QUJD" + "QQ")]))
            try add("x5c2.number", header: header(x5c: [jsonString(leaf), jsonString(intermediate), "42"]))
            try add("x5c2.null", header: header(x5c: [jsonString(leaf), jsonString(intermediate), "null"]))
            try add("x5c2.object", header: header(x5c: [jsonString(leaf), jsonString(intermediate), "{}"]))

            // x5c shape.
            try add("x5c.twoCertificates", header: header(x5c: [leaf, intermediate].map(jsonString)))
            try add("x5c.fourCertificates", header: header(x5c: [leaf, intermediate, root, root].map(jsonString)))
            try add("x5c.oneCertificate", header: header(x5c: [jsonString(leaf)]))
            try add("x5c.empty", header: header(x5c: []))
            try add("x5c.reordered", header: header(x5c: [intermediate, leaf, root].map(jsonString)))
            try add("x5c.leafTwice", header: header(x5c: [leaf, leaf, root].map(jsonString)))
            try add("x5c.rootAsIntermediate", header: header(x5c: [leaf, root, root].map(jsonString)))
            try add("x5c.shippedIntermediate", header: header(x5c: [leaf, b64(try Data(contentsOf: TestPaths.testVector("pki/intermediate.der"))), root].map(jsonString)))
            try add("x5c.missing", header: goodHeader.replacing("x5c", with: nil))
            try add("x5c.string", header: goodHeader.replacing("x5c", with: jsonString(leaf)))
            try add("x5c.nested", header: goodHeader.replacing("x5c", with: jsonArray([goodChain])))
            try add("x5c.null", header: goodHeader.replacing("x5c", with: "null"))
            try add("x5c.duplicateKeyGoodLast", header: RawJSONObject([("alg", jsonString("ES256")), ("x5c", jsonArray([jsonString(leaf)])), ("x5c", goodChain)]))
            try add("x5c.duplicateKeyGoodFirst", header: RawJSONObject([("alg", jsonString("ES256")), ("x5c", goodChain), ("x5c", jsonArray([jsonString(leaf)]))]))

            // The certificates themselves.
            for (name, bytes) in [("zeros", [UInt8](repeating: 0, count: 2)), ("oneByte", [0x05]), ("random", random.bytes(16)),
                                  ("secondCertificate", Array(pki.intermediate.der))] {
                try add("x5c0.trailingBytes.\(name)", header: header(x5c: [withTrailing(pki.leaf.der, bytes), intermediate, root].map(jsonString)))
                try add("x5c1.trailingBytes.\(name)", header: header(x5c: [leaf, withTrailing(pki.intermediate.der, bytes), root].map(jsonString)))
            }
            try add("x5c0.truncated", header: header(x5c: [b64(pki.leaf.der.dropLast(1)), intermediate, root].map(jsonString)))
            try add("x5c1.truncated", header: header(x5c: [leaf, b64(pki.intermediate.der.dropLast(10)), root].map(jsonString)))
            try add("x5c0.base64url", header: header(x5c: [leaf.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"), intermediate, root].map(jsonString)))
            try add("x5c0.unpadded", header: header(x5c: [leaf.replacingOccurrences(of: "=", with: ""), intermediate, root].map(jsonString)))
            try add("x5c0.lineBreaks", header: header(x5c: [jsonString(stride(from: 0, to: leaf.count, by: 64).map { String(leaf.dropFirst($0).prefix(64)) }.joined(separator: "\n")), jsonString(intermediate), jsonString(root)]))
            try add("x5c0.leadingSpace", header: header(x5c: [" " + leaf, intermediate, root].map(jsonString)))
            try add("x5c0.pem", header: header(x5c: ["-----BEGIN CERTIFICATE-----\n\(leaf)\n-----END CERTIFICATE-----", intermediate, root].map(jsonString)))
            try add("x5c0.leafWithoutMarker", header: header(x5c: [b64(pki.leafWithoutMarker.der), intermediate, root].map(jsonString)), signer: pki.otherLeafKey)
            try add("x5c1.intermediateWithoutMarker", header: header(x5c: [b64(pki.leafUnderUnmarkedIntermediate.der), b64(pki.intermediateWithoutMarker.der), root].map(jsonString)), signer: pki.unmarkedChainLeafKey)
            try add("x5c0.leafIssuedByRoot", header: header(x5c: [b64(pki.leafIssuedByRoot.der), intermediate, root].map(jsonString)), signer: pki.rootIssuedLeafKey)
            try add("x5c0.rogueChain", header: header(x5c: [b64(pki.rogueLeaf.der), b64(pki.rogueIntermediate.der), b64(pki.rogueRoot.der)].map(jsonString)), signer: pki.rogueLeafKey)

            // alg.
            for (name, raw) in [("none", jsonString("none")), ("ES384", jsonString("ES384")), ("lowercase", jsonString("es256")),
                                ("HS256", jsonString("HS256")), ("trailingSpace", jsonString("ES256 ")), ("null", "null"),
                                ("array", jsonArray([jsonString("ES256")])), ("escaped", "\"\\u0045S256\"")] {
                try add("alg.\(name)", header: goodHeader.replacing("alg", with: raw))
            }
            try add("alg.missing", header: goodHeader.replacing("alg", with: nil))
            try add("alg.duplicateKeyGoodLast", header: goodHeader.inserting("alg", jsonString("none"), at: 0))
            try add("alg.duplicateKeyGoodFirst", header: goodHeader.adding("alg", jsonString("none")))

            // Other header parameters.
            try add("header.kidString", header: goodHeader.adding("kid", jsonString("Apple_Key")))
            try add("header.kidNumber", header: goodHeader.adding("kid", "42"), traits: ["kidNotAString"])
            try add("header.kidNull", header: goodHeader.adding("kid", "null"), traits: ["kidNotAString"])
            try add("header.typJWT", header: goodHeader.adding("typ", jsonString("JWT")))
            try add("header.typNumber", header: goodHeader.adding("typ", "5"))
            try add("header.critExp", header: goodHeader.adding("crit", jsonArray([jsonString("exp")])).adding("exp", "1"), traits: ["critHeader"])
            try add("header.critEmpty", header: goodHeader.adding("crit", "[]"), traits: ["critHeader"])
            try add("header.critB64True", header: goodHeader.adding("b64", "true").adding("crit", jsonArray([jsonString("b64")])), traits: ["critHeader"])
            try add("header.b64TrueWithoutCrit", header: goodHeader.adding("b64", "true"))
            try add("header.b64FalseWithoutCrit", header: goodHeader.adding("b64", "false"), traits: ["b64FalseWithoutCrit"])
            try add("header.b64FalseWithCrit", header: goodHeader.adding("b64", "false").adding("crit", jsonArray([jsonString("b64")])), traits: ["critHeader"])
            try add("header.jku", header: goodHeader.adding("jku", jsonString("https://example.invalid/keys")))
            try add("header.x5u", header: goodHeader.adding("x5u", jsonString("https://example.invalid/chain.pem")))
            try add("header.jwk", header: goodHeader.adding("jwk", "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"AAAA\",\"y\":\"AAAA\"}"))
            try add("header.x5t", header: goodHeader.adding("x5t", jsonString("AAAA")))
            try add("header.unknownField", header: goodHeader.adding("foo", jsonArray(["1", "null"])))
            try add("header.prettyPrinted", headerBytes: Data(goodHeader.text.replacingOccurrences(of: "\",\"", with: "\",\n  \"").replacingOccurrences(of: "{", with: "{\n  ").utf8))
            try add("header.trailingSpace", headerBytes: Data((goodHeader.text + " ").utf8))
            try add("header.trailingGarbage", headerBytes: Data((goodHeader.text + "x").utf8))
            try add("header.byteOrderMark", headerBytes: Data([0xEF, 0xBB, 0xBF] + Array(goodHeader.text.utf8)), traits: ["jsonWithByteOrderMark"])
            try add("header.utf16", headerBytes: goodHeader.text.data(using: .utf16LittleEndian)!, traits: ["jsonInUTF16"])
            try add("header.jsonArray", headerBytes: Data("[\(goodHeader.text)]".utf8))
            // Trailing spaces (harmless JSON white space) make the segment's length need padding.
            try add("header.padded", headerBytes: Data(Self.needingPadding(goodHeader.text).utf8), headerSegment: { Self.padded(base64URLEncoded($0)) })
            try add("header.standardBase64", headerBytes: Data(Self.needingPadding(goodHeader.text).utf8), headerSegment: { $0.base64EncodedString() })

            // Payload: identity and environment.
            for (name, raw) in [("other", jsonString("com.other.app")), ("caseChanged", jsonString("com.example.App")),
                                ("trailingSpace", jsonString("com.example.app ")), ("null", "null"), ("number", "5"),
                                ("escaped", "\"com.example\\u002eapp\"")] {
                try add("payload.bundleId.\(name)", payload: goodPayload.replacing("bundleId", with: raw))
            }
            try add("payload.bundleId.missing", payload: goodPayload.replacing("bundleId", with: nil))
            try add("payload.bundleId.duplicateGoodLast", payload: goodPayload.inserting("bundleId", jsonString("com.other.app"), at: 0), traits: ["duplicateJSONKey"])
            try add("payload.bundleId.duplicateGoodFirst", payload: goodPayload.adding("bundleId", jsonString("com.other.app")), traits: ["duplicateJSONKey"])
            for (name, raw) in [("Production", jsonString("Production")), ("lowercase", jsonString("sandbox")), ("Xcode", jsonString("Xcode")),
                                ("LocalTesting", jsonString("LocalTesting")), ("unknown", jsonString("Staging")), ("null", "null")] {
                try add("payload.environment.\(name)", payload: goodPayload.replacing("environment", with: raw))
            }
            try add("payload.environment.missing", payload: goodPayload.replacing("environment", with: nil))
            try add("payload.environment.duplicateGoodLast", payload: goodPayload.inserting("environment", jsonString("Production"), at: 0), traits: ["duplicateJSONKey"])
            try add("payload.environment.duplicateGoodFirst", payload: goodPayload.adding("environment", jsonString("Production")), traits: ["duplicateJSONKey"])

            // Payload: the effective date (the minted leaf is valid 2025-01-01 .. 2049-01-01).
            let notBefore = Int64(MintedPKI.leafNotBefore) * 1000, notAfter = Int64(MintedPKI.leafNotAfter) * 1000
            for (name, value) in [("beforeLeaf", Int64(1_717_200_000_000)), ("afterLeaf", Int64(2_506_118_400_000)),
                                  ("leafNotBeforeMinus1s", notBefore - 1000), ("leafNotBefore", notBefore), ("leafNotBeforePlus999ms", notBefore + 999),
                                  ("leafNotAfter", notAfter), ("leafNotAfterPlus999ms", notAfter + 999), ("leafNotAfterPlus1s", notAfter + 1000),
                                  ("zero", 0), ("negative", -1_000), ("huge", 9_000_000_000_000_000)] {
                try add("payload.signedDate.\(name)", payload: goodPayload.replacing("signedDate", with: "\(value)"),
                        traits: name.hasPrefix("leafNotAfterPlus999") || name == "leafNotAfter" ? ["signedDateAtLeafNotAfter"] : [])
            }
            try add("payload.signedDate.missing", payload: goodPayload.replacing("signedDate", with: nil))
            try add("payload.signedDate.null", payload: goodPayload.replacing("signedDate", with: "null"))
            try add("payload.signedDate.fraction", payload: goodPayload.replacing("signedDate", with: "1772366400000.5"))
            try add("payload.signedDate.exponent", payload: goodPayload.replacing("signedDate", with: "1.7723664e12"))
            try add("payload.signedDate.string", payload: goodPayload.replacing("signedDate", with: jsonString("1772366400000")), traits: ["payloadFieldOfWrongJSONType"])
            try add("payload.signedDate.stringBeforeLeaf", payload: goodPayload.replacing("signedDate", with: jsonString("1717200000000")), traits: ["payloadFieldOfWrongJSONType"])
            try add("payload.signedDate.boolean", payload: goodPayload.replacing("signedDate", with: "true"))
            try add("payload.signedDate.missingReceiptCreationDateInside", payload: goodPayload.replacing("signedDate", with: nil).adding("receiptCreationDate", "1772366400000"))
            try add("payload.signedDate.missingReceiptCreationDateBeforeLeaf", payload: goodPayload.replacing("signedDate", with: nil).adding("receiptCreationDate", "1717200000000"),
                    traits: ["receiptCreationDateAsEffectiveDate"])

            // Payload: JWT registered claims, which PyJWT validates when present.
            try add("payload.jwt.expPast", payload: goodPayload.adding("exp", "1000000000"), traits: ["jwtExpInThePast"])
            try add("payload.jwt.expFuture", payload: goodPayload.adding("exp", "4102444800"))
            try add("payload.jwt.expString", payload: goodPayload.adding("exp", jsonString("tomorrow")), traits: ["jwtClaimNotANumber"])
            try add("payload.jwt.nbfFuture", payload: goodPayload.adding("nbf", "4102444800"), traits: ["jwtNbfInTheFuture"])
            try add("payload.jwt.nbfPast", payload: goodPayload.adding("nbf", "1000000000"))
            try add("payload.jwt.iatFuture", payload: goodPayload.adding("iat", "4102444800"), traits: ["jwtIatInTheFuture"])
            try add("payload.jwt.iatString", payload: goodPayload.adding("iat", jsonString("yesterday")), traits: ["jwtClaimNotANumber"])
            try add("payload.jwt.iatPast", payload: goodPayload.adding("iat", "1000000000"))
            try add("payload.jwt.aud", payload: goodPayload.adding("aud", jsonString("com.example.app")), traits: ["jwtAudPresent"])
            try add("payload.jwt.iss", payload: goodPayload.adding("iss", jsonString("appstore")))
            try add("payload.jwt.subNumber", payload: goodPayload.adding("sub", "5"), traits: ["jwtSubOrJtiNotAString"])
            try add("payload.jwt.jtiNumber", payload: goodPayload.adding("jti", "5"), traits: ["jwtSubOrJtiNotAString"])
            try add("payload.jwt.subString", payload: goodPayload.adding("sub", jsonString("user")))

            // Payload: field types (Apple documents strings and int64 numbers).
            try add("payload.type.transactionIdNumber", payload: goodPayload.replacing("transactionId", with: "2000000123456789"), traits: ["payloadFieldOfWrongJSONType"])
            try add("payload.type.priceString", payload: goodPayload.replacing("price", with: jsonString("9990")), traits: ["payloadFieldOfWrongJSONType"])
            try add("payload.type.quantityFraction", payload: goodPayload.replacing("quantity", with: "1.5"), traits: ["payloadFieldOfWrongJSONType"])
            try add("payload.type.priceNull", payload: goodPayload.replacing("price", with: "null"))
            try add("payload.type.unknownField", payload: goodPayload.adding("futureField", "{\"a\":[1,2,{\"b\":null}]}"))
            try add("payload.type.unknownEnumValue", payload: goodPayload.replacing("type", with: jsonString("Future Product Type")))

            // Payload: JSON itself.
            try add("payload.json.nan", payload: goodPayload.adding("futureField", "NaN"), traits: ["nonStandardJSON"])
            try add("payload.json.infinity", payload: goodPayload.adding("futureField", "Infinity"), traits: ["nonStandardJSON"])
            try add("payload.json.byteOrderMark", payloadBytes: Data([0xEF, 0xBB, 0xBF] + Array(goodPayload.text.utf8)), traits: ["jsonWithByteOrderMark"])
            try add("payload.json.utf16", payloadBytes: goodPayload.text.data(using: .utf16LittleEndian)!, traits: ["jsonInUTF16"])
            try add("payload.json.whitespace", payloadBytes: Data(("\n " + goodPayload.text + " \n").utf8))
            try add("payload.json.trailingGarbage", payloadBytes: Data((goodPayload.text + "x").utf8))
            try add("payload.json.twoObjects", payloadBytes: Data((goodPayload.text + goodPayload.text).utf8))
            try add("payload.json.array", payloadBytes: Data("[\(goodPayload.text)]".utf8))
            try add("payload.json.empty", payloadBytes: Data())
            try add("payload.json.nested100", payload: goodPayload.adding("futureField", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
            try add("payload.json.nested600", payload: goodPayload.adding("futureField", String(repeating: "[", count: 600) + String(repeating: "]", count: 600)), traits: ["deepJSONNesting"])
            try add("payload.json.loneSurrogate", payload: goodPayload.adding("futureField", "\"\\ud800\""), traits: ["loneSurrogateEscape"])
            try add("payload.padded", payloadBytes: Data(Self.needingPadding(goodPayload.text).utf8), payloadSegment: { Self.padded(base64URLEncoded($0)) })
            try add("payload.standardBase64", payloadBytes: Data(Self.needingPadding(goodPayload.text).utf8), payloadSegment: { $0.base64EncodedString() })
            return inputs
        }

        /// `json` with spaces appended until its base64url encoding needs '=' padding.
        static func needingPadding(_ json: String) -> String {
            var text = json
            while base64URLEncoded(Data(text.utf8)).utf8.count % 4 == 0 { text += " " }
            return text
        }

        /// `segment` with '=' padding to a multiple of four characters.
        static func padded(_ segment: String) -> String {
            let remainder = segment.utf8.count % 4
            return segment + String(repeating: "=", count: remainder == 0 ? 0 : 4 - remainder)
        }
    }

}
