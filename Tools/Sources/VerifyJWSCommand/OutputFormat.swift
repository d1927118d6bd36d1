/// The `--format` option: `text` for people, `json` for one JSON object per input line.
enum OutputFormat: String, CaseIterable, Sendable {
    case text, json
}
