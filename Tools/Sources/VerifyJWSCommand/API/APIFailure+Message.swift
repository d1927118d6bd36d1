import AppStoreServerAPI

extension APIFailure {
    /// `error`'s message in verify-jws's words: the client's settings it names (`Options.deadline`,
    /// `Options.maximumPages`, `Options.paginationDeadline`) become what the tool offers (`--deadline`,
    /// a narrower request), so that the advice can be followed from the command line.
    static func message(for error: AppStoreServerAPIError) -> String {
        var text = error.message
        let replacements = [
            ("raise Options.deadline", "raise --deadline (seconds, 60 by default)"),
            (" (Options.maximumPages)", ""),
            ("narrow the request (dates, products) or raise Options.maximumPages", "narrow the request (--start and --end for notifications)"),
            (", past Options.paginationDeadline", ", past the time allowed for all pages"),
            ("narrow the request or raise the deadline", "narrow the request (--start and --end for notifications) or try again later"),
        ]
        for (library, tool) in replacements {
            text = text.replacingOccurrences(of: library, with: tool)
        }
        return text
    }
}
