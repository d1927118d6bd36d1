#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator, tuned for a server that allocates and frees request-sized buffers on many
/// threads: freed memory is kept for reuse instead of being returned to the kernel at once and
/// faulted in again on the next request (measured under the load benchmark: 26 page faults per
/// POST before, 2 after, and about a tenth less CPU per request). The process keeps up to a few
/// tens of MiB it freed. Left alone when `GLIBC_TUNABLES` already sets malloc options, and where
/// the C library has no `mallopt` (musl, Darwin).
enum MemoryTuning {
    /// `mallopt`'s parameters (glibc's `malloc.h`, which Swift's Glibc module does not import).
    private static let trimThreshold: Int32 = -1
    private static let topPad: Int32 = -2
    private static let mmapThreshold: Int32 = -3

    static func apply(environment: [String: String]) {
        #if canImport(Glibc)
        if environment["GLIBC_TUNABLES"]?.contains("glibc.malloc") == true { return }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(trimThreshold, 64 << 20)
        _ = mallopt(topPad, 16 << 20)
        _ = mallopt(mmapThreshold, 16 << 20)
        #endif
    }
}
