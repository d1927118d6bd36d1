import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#else
#error("The Testing product's loopback servers need the POSIX sockets of Glibc, Musl or Darwin")
#endif

/// The POSIX socket calls of the Testing product's loopback servers, with the differences between
/// glibc, musl and Darwin in one place. Every descriptor is made close-on-exec, so that a process a
/// test starts never holds a connection open; writes never raise SIGPIPE.
enum LoopbackSocket {
    /// A TCP socket listening on 127.0.0.1 (on ::1 with `ipv6`) on `port` (0: one the kernel
    /// chooses): the descriptor and the port.
    static func listenOnLoopback(port: UInt16 = 0, ipv6: Bool = false) throws(AppStoreTestingError) -> (descriptor: Int32, port: UInt16) {
        let family = ipv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        // glibc: SOCK_STREAM and SOCK_CLOEXEC are cases of the C enum __socket_type.
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #elseif canImport(Musl)
        let descriptor = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("cannot create a socket") }
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #endif
        // A port chosen in advance (written into test certificates) binds even while connections
        // of an earlier listener on it linger in TIME_WAIT.
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: (ok: Bool, port: UInt16)
        if ipv6 {
            var address = sockaddr_in6()
            #if canImport(Darwin)
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            bound = (bindReadingBack(descriptor, &address), UInt16(bigEndian: address.sin6_port))
        } else {
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            bound = (bindReadingBack(descriptor, &address), UInt16(bigEndian: address.sin_port))
        }
        guard bound.ok, listen(descriptor, 64) == 0 else {
            let error = failure("cannot listen on \(ipv6 ? "[::1]" : "127.0.0.1"):\(port)")
            close(descriptor)
            throw error
        }
        return (descriptor, bound.port)
    }

    /// Binds `descriptor` to `address` (a `sockaddr_in` or `sockaddr_in6`), then reads back into it
    /// the address the kernel gave (the port it chose for port 0). Whether both succeeded.
    private static func bindReadingBack<Address>(_ descriptor: Int32, _ address: inout Address) -> Bool {
        var length = socklen_t(MemoryLayout<Address>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
    }

    /// Accepts one connection (close-on-exec; on Darwin without SIGPIPE), or `nil` when `accept`
    /// fails (the peer gave up before being accepted, or the listener was shut down).
    static func accept(_ listener: Int32) -> Int32? {
        // glibc declares accept4 only under _GNU_SOURCE, which Swift does not set: close-on-exec is
        // set right after accepting (a process started in between could inherit the descriptor,
        // and would only hold the connection open a little longer).
        #if canImport(Glibc)
        let connection = Glibc.accept(listener, nil, nil)
        #elseif canImport(Musl)
        let connection = Musl.accept(listener, nil, nil)
        #else
        let connection = Darwin.accept(listener, nil, nil)
        #endif
        guard connection >= 0 else { return nil }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }

    /// Waits until `descriptor` is readable (or hung up), or `wake` is, or `milliseconds` pass
    /// (-1: no limit). Whether `descriptor` is readable.
    static func waitReadable(_ descriptor: Int32, wake: Int32? = nil, milliseconds: Int32) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            if descriptors.count > 1, descriptors[1].revents != 0 { return false }
            return descriptors[0].revents != 0
        }
    }

    /// Reads what is available into `buffer` (up to its capacity): the byte count, 0 at the end of
    /// the stream, -1 on an error.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Writes all of `bytes`. Whether they were all written.
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                // glibc: MSG_NOSIGNAL is a case of an anonymous C enum, imported as Int.
                return Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #elseif canImport(Musl)
                return Musl.send(descriptor, base + offset, raw.count - offset, MSG_NOSIGNAL)
                #else
                // Darwin: accept() set SO_NOSIGPIPE.
                return Darwin.send(descriptor, base + offset, raw.count - offset, 0)
                #endif
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Ends both directions of a connection, so that a thread reading it sees the end of the stream.
    static func shutdownBoth(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #elseif canImport(Musl)
        _ = Musl.shutdown(descriptor, SHUT_RDWR)
        #else
        _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    /// Closes a descriptor.
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
        _ = Musl.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// A pipe (read end, write end), both close-on-exec, to wake a thread waiting in `poll`.
    static func pipe() throws(AppStoreTestingError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let made = ends.withUnsafeMutableBufferPointer { buffer -> Bool in
            #if canImport(Glibc)
            return Glibc.pipe(buffer.baseAddress) == 0
            #elseif canImport(Musl)
            return Musl.pipe(buffer.baseAddress) == 0
            #else
            return Darwin.pipe(buffer.baseAddress) == 0
            #endif
        }
        guard made else { throw failure("cannot create a pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Writes one byte to a pipe's write end.
    static func signal(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// An error saying what failed, with the system's words for `errno`.
    static func failure(_ what: String) -> AppStoreTestingError {
        let code = errno
        return AppStoreTestingError(.socketFailure, "\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
