import Foundation

// ConsoleBrowserSeed DIRECTORY: mints the browser test's customer (ConsoleSeed) into DIRECTORY.
// Tests/Browser/run.sh runs it; nothing else does.
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ConsoleBrowserSeed DIRECTORY\n".utf8))
    exit(2)
}
do {
    try ConsoleSeed(now: Date()).write(to: URL(fileURLWithPath: arguments[1], isDirectory: true))
} catch {
    FileHandle.standardError.write(Data("ConsoleBrowserSeed: \(error)\n".utf8))
    exit(1)
}
