internal import CAppStoreOpenSSL
internal import CAppStoreOpenSSLTesting
import Foundation

/// The OpenSSL side of ``TestOCSPResponder`` (`asv_mint_ocsp.h`): which certificates a DER
/// OCSP request asks about, and the DER response answering it.
enum OCSPResponderCodec {
    /// One certificate a request asks about (or a certificate would be asked about as).
    struct Query: Hashable, Sendable {
        /// The index of its issuer among the issuers given, `nil` for none of them.
        let issuerIndex: Int?
        /// Its serial number, uppercase hexadecimal.
        let serial: String
    }

    /// What one single request is answered.
    struct SingleAnswer: Sendable {
        enum Status: Sendable { case good, revoked(at: Date, reason: Int?), unknown }
        let status: Status
    }

    /// The certificates `request` asks about, in order, or why it cannot be read.
    static func queries(in request: Data, issuers: [TestCertificate]) -> Result<[Query], AppStoreTestingError> {
        do {
            return .success(try withParsed(issuers) { (pointers) throws(AppStoreTestingError) -> [Query] in
                var raw = [asv_mint_ocsp_query](repeating: asv_mint_ocsp_query(), count: Int(ASV_MINT_OCSP_MAX_QUERIES))
                var count = 0
                var error = asv_error()
                let result = request.withUnsafeBytes { bytes in
                    pointers.withUnsafeBufferPointer { issuers in
                        raw.withUnsafeMutableBufferPointer { queries in
                            asv_mint_ocsp_read_request(bytes.baseAddress, bytes.count, issuers.baseAddress, issuers.count,
                                                            queries.baseAddress, queries.count, &count, &error)
                        }
                    }
                }
                guard result == 1 else {
                    throw AppStoreTestingError(result == 0 ? .invalidArgument : .openSSLFailure, OpenSSLMessage.text(error))
                }
                return raw[..<count].map(Query.init)
            })
        } catch {
            return .failure(error)
        }
    }

    /// What a request about `certificate` asks: its issuer among `issuers` and its serial.
    static func query(for certificate: TestCertificate, issuers: [TestCertificate]) throws(AppStoreTestingError) -> Query {
        try withParsed(issuers) { (pointers) throws(AppStoreTestingError) -> Query in
            try certificate.withX509 { (parsed) throws(AppStoreTestingError) -> Query in
                var raw = asv_mint_ocsp_query()
                var error = asv_error()
                let result = pointers.withUnsafeBufferPointer { asv_mint_ocsp_identify(parsed, $0.baseAddress, $0.count, &raw, &error) }
                guard result == 1 else { throw AppStoreTestingError(.openSSLFailure, "reading a certificate's serial failed: \(OpenSSLMessage.text(error))") }
                return Query(raw)
            }
        }
    }

    /// The signed DER response to `request`: `answers` in the request's order, signed by `issuer`
    /// with `key`, valid from `thisUpdate` until `nextUpdate` (none when `nil`).
    static func response(to request: Data, answers: [SingleAnswer], issuer: TestCertificate, key: TestPrivateKey,
                         thisUpdate: Date, nextUpdate: Date?) throws(AppStoreTestingError) -> Data {
        let raw = answers.map { answer -> asv_mint_ocsp_answer in
            switch answer.status {
            case .good: asv_mint_ocsp_answer(status: Int32(ASV_OCSP_STATUS_GOOD.rawValue), revocation_time: 0, revocation_reason: -1)
            case .unknown: asv_mint_ocsp_answer(status: Int32(ASV_OCSP_STATUS_UNKNOWN.rawValue), revocation_time: 0, revocation_reason: -1)
            case .revoked(let date, let reason):
                asv_mint_ocsp_answer(status: Int32(ASV_OCSP_STATUS_REVOKED.rawValue), revocation_time: seconds(date),
                                          revocation_reason: Int32(clamping: reason ?? -1))
            }
        }
        return try issuer.withX509 { (signer) throws(AppStoreTestingError) -> Data in
            try OpenSSLBuffer.take("signing the OCSP response") { out, length, error in
                request.withUnsafeBytes { bytes in
                    raw.withUnsafeBufferPointer { answers in
                        asv_mint_ocsp_response(bytes.baseAddress, bytes.count, answers.baseAddress, answers.count, signer, key.pointer,
                                                seconds(thisUpdate), nextUpdate.map(seconds) ?? 0, out, length, error)
                    }
                }
            }
        }
    }

    /// An unsigned response carrying only the error `status` (`ASV_OCSP_RESPONDER_*`).
    static func errorResponse(_ status: asv_ocsp_responder_status) throws(AppStoreTestingError) -> Data {
        try OpenSSLBuffer.take("encoding an OCSP error response") { asv_mint_ocsp_error_response(Int32(status.rawValue), $0, $1, $2) }
    }

    /// Whole seconds since 1970, rounded down.
    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Runs `body` with `certificates` parsed by OpenSSL (all freed after).
    private static func withParsed<Result>(_ certificates: [TestCertificate],
                                           _ body: ([OpaquePointer?]) throws(AppStoreTestingError) -> Result) throws(AppStoreTestingError) -> Result {
        var parsed: [OpaquePointer?] = []
        defer { for pointer in parsed { if let pointer { asv_x509_free(pointer) } } }
        for certificate in certificates {
            var error = asv_error()
            let pointer = certificate.derEncoded.withUnsafeBytes { asv_x509_from_der($0.baseAddress, $0.count, &error) }
            guard let pointer else {
                throw AppStoreTestingError(.invalidCertificateOrKey, "an issuer certificate does not parse: \(OpenSSLMessage.text(error))")
            }
            parsed.append(pointer)
        }
        return try body(parsed)
    }
}

extension OCSPResponderCodec.Query {
    /// The query the C function wrote.
    fileprivate init(_ raw: asv_mint_ocsp_query) {
        var copy = raw
        let serial = withUnsafeBytes(of: &copy.serial_hex) { bytes -> String in
            let characters = bytes.bindMemory(to: UInt8.self)
            let end = characters.firstIndex(of: 0) ?? characters.endIndex
            return String(decoding: characters[..<end], as: UTF8.self)
        }
        self.init(issuerIndex: raw.issuer_index >= 0 ? Int(raw.issuer_index) : nil, serial: serial)
    }
}
