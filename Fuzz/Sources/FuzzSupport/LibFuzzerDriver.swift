import Foundation

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer's driver over `callback` with the process's arguments, then exits with its status.
///
/// SwiftPM gives an executable its own `main`, so each fuzz target's `main` starts the driver
/// itself; the target also exports `LLVMFuzzerTestOneInput` (calling the same function), the symbol
/// libFuzzer's runtime refers to.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// A file of the repository's `TestVectors` folder (this package lives in the repository's `Fuzz/`).
public func testVector(_ relativePath: String) -> URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors").appendingPathComponent(relativePath)
}

/// Ends the run when the fuzz target cannot set itself up (its test vectors are missing).
public func failSetUp(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

/// Ends the run with a crash that libFuzzer reports (and saves the input for) when a fuzz target's
/// invariant does not hold.
public func failInvariant(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    abort()
}
