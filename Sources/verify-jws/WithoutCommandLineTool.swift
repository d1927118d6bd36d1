#if !CommandLineTool
import Foundation

/// `verify-jws` built without the `CommandLineTool` trait (`swift build --disable-default-traits`):
/// the command-line parser it needs is left out, so the tool says how to build it with it.
@main
enum VerifyJWSWithoutCommandLineTool {
    static func main() {
        let message = "verify-jws was built without the CommandLineTool trait, which brings its command-line parser "
            + "(swift-argument-parser); build it with the default traits (swift build) or with --traits CommandLineTool\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
}
#endif
