/// The lines verified so far and the worst status among them.
///
/// Updated by one writer at a time (the ordered pipeline hands the writing role over under its
/// lock) and read after the pipeline finished, so it needs no lock of its own.
final class Tally: @unchecked Sendable {
    private(set) var count = 0
    private(set) var worst = Outcome.Status.verified
    private var progress = ProgressCounter()

    func add(_ status: Outcome.Status) {
        count += 1
        worst = Outcome.worse(worst, status)
        progress.update(done: count)
    }

    func finish() { progress.finish() }
}
