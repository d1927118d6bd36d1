extension String {
    /// The text ending one sentence: with a final period added, unless it already ends with `.`,
    /// `?` or `!` (so that a quoted message ending in a period does not read "..").
    var endingSentence: String {
        guard let last = last, !".?!".contains(last) else { return self }
        return self + "."
    }
}
