import Foundation

/// The bytes of an OCSP POST as ``SocketOCSPTransport`` sends it: HTTP/1.1, one request per
/// connection.
enum OCSPHTTPRequest {
    /// `POST` of `body` to `endpoint`: in origin form (`POST /path HTTP/1.1`), or in absolute form
    /// (`POST http://host/path HTTP/1.1`) when it goes through a proxy.
    static func bytes(posting body: Data, to endpoint: OCSPHTTPEndpoint, throughProxy: Bool) -> [UInt8] {
        let head = "POST \(throughProxy ? endpoint.absoluteTarget : endpoint.target) HTTP/1.1\r\n"
            + "Host: \(endpoint.hostHeader)\r\n"
            + "Content-Type: application/ocsp-request\r\n"
            + "Accept: application/ocsp-response\r\n"
            + "Content-Length: \(body.count)\r\n"
            + "Connection: close\r\n"
            + "\r\n"
        return Array(head.utf8) + Array(body)
    }
}
