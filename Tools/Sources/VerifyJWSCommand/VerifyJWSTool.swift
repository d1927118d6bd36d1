import Foundation

/// The `verify-jws` command-line tool, as a library: the executable target is one call to
/// ``main()``; the tool's tests run it in process through ``run(_:context:)`` and
/// ``runSynchronously(_:context:)``, and the fuzz package links the same code.
public enum VerifyJWSTool {
    /// Parses `CommandLine.arguments`, runs the command they name and exits the process with the
    /// tool's documented exit status.
    public static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        Task {
            let status = await run(arguments, context: .process)
            exit(status)
        }
        dispatchMain()
    }

    /// Runs the tool with `arguments` (those after the program's name), writing to `context`'s
    /// descriptors and reading its environment, and returns the exit status the process would
    /// exit with. The synchronous commands run on a thread of their own, never on Swift's
    /// cooperative pool.
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        if VerifyJWS.isAPICommand(arguments) {
            return await CommandContext.$current.withValue(context) {
                await APICommand.status(running: Array(arguments.dropFirst()))
            }
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: runSynchronously(arguments, context: context))
            }
        }
    }

    /// ``run(_:context:)`` on the calling thread, which it blocks until the command ends: for
    /// callers without `async` (the tool's synchronous tests). `verify-jws api` and `--online`
    /// wait there for work on Swift's cooperative pool, so call this from a thread that is not
    /// one of the pool's for them.
    public static func runSynchronously(_ arguments: [String], context: CommandContext) -> Int32 {
        if VerifyJWS.isAPICommand(arguments) {
            let result = StatusBox()
            let done = DispatchSemaphore(value: 0)
            Task {
                result.set(await CommandContext.$current.withValue(context) {
                    await APICommand.status(running: Array(arguments.dropFirst()))
                })
                done.signal()
            }
            done.wait()
            return result.value
        }
        return CommandContext.$current.withValue(context) { VerifyJWS.status(arguments: arguments) }
    }

    /// The status an API run hands back to a waiting thread.
    private final class StatusBox: @unchecked Sendable {
        private let lock = NSLock()
        private var status: Int32 = 0
        func set(_ value: Int32) { lock.withLock { status = value } }
        var value: Int32 { lock.withLock { status } }
    }
}
