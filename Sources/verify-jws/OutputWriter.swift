import AppStoreVerification
import ArgumentParser
import Foundation

/// The `--format` option.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// Writes outcomes to standard output, buffered.
struct OutputWriter {
    let format: OutputFormat
    private var buffer = Data()

    init(format: OutputFormat) {
        self.format = format
        buffer.reserveCapacity(1 << 16)
    }

    /// The output for one input line, newline included (pure, so workers can render in parallel).
    static func render(_ outcome: Outcome, for line: InputLine, format: OutputFormat) -> String {
        switch format {
        case .json: jsonLine(outcome) + "\n"
        case .text: text(outcome, location: "\(line.source == "-" ? "stdin" : line.source):\(line.lineNumber)") + "\n"
        }
    }

    mutating func write(_ rendered: String) {
        buffer.append(contentsOf: rendered.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func finish() { flush() }

    private mutating func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: - JSON

    /// One JSON object: status, error, type, payload, and nested outcomes when there are any. The
    /// status is the worst of the outcome and its nested ones, and the error the first that failed.
    static func jsonLine(_ outcome: Outcome) -> String {
        var fields = [
            "\"status\":\(quote(outcome.overallStatus.rawValue))",
            "\"error\":\(errorJSON(effectiveError(of: outcome)))",
            "\"type\":\(outcome.kind.map { quote($0.optionName) } ?? "null")",
            "\"payload\":\(payloadJSON(outcome.payloadData))",
        ]
        if !outcome.nested.isEmpty {
            let nested = outcome.nested.map { name, inner in
                "\(quote(name)):{\"status\":\(quote(inner.overallStatus.rawValue)),\"error\":\(errorJSON(effectiveError(of: inner))),\"payload\":\(payloadJSON(inner.payloadData))}"
            }
            fields.append("\"nested\":{\(nested.joined(separator: ","))}")
        }
        return "{\(fields.joined(separator: ","))}"
    }

    /// The outcome's own error, else the first nested one, prefixed with where it is.
    static func effectiveError(of outcome: Outcome) -> (code: String, message: String)? {
        if let code = outcome.errorCode { return (code, outcome.errorMessage ?? "") }
        for (name, inner) in outcome.nested {
            if let error = effectiveError(of: inner) { return (error.code, "\(name): \(error.message)") }
        }
        return nil
    }

    private static func errorJSON(_ error: (code: String, message: String)?) -> String {
        guard let error else { return "null" }
        return "{\"code\":\(quote(error.code)),\"message\":\(quote(error.message))}"
    }

    /// The payload JSON as the App Store signed it when it is one line (it always is: the verifier
    /// decoded it, so it is valid JSON), re-serialized compactly otherwise.
    private static func payloadJSON(_ data: Data?) -> String {
        if let data, !data.contains(UInt8(ascii: "\n")), !data.contains(UInt8(ascii: "\r")), data.first == UInt8(ascii: "{") {
            return String(decoding: data, as: UTF8.self)
        }
        guard let data, let object = try? JSONSerialization.jsonObject(with: data),
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "null" }
        return String(decoding: compact, as: UTF8.self)
    }

    static func quote(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]) else { return "\"\"" }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    // MARK: - Text

    static func text(_ outcome: Outcome, location: String, indent: String = "") -> String {
        let kind = outcome.kind?.description ?? "input"
        var lines: [String] = []
        switch outcome.status {
        case .verified: lines.append("\(indent)✔ verified: \(kind) (\(location))")
        case .unverified: lines.append("\(indent)✘ UNVERIFIED: \(kind) (\(location))")
        case .malformed: lines.append("\(indent)✘ MALFORMED: \(kind) (\(location))")
        case .unavailable: lines.append("\(indent)… UNAVAILABLE (retry later): \(kind) (\(location))")
        }
        if let code = outcome.errorCode {
            lines.append("\(indent)  \(code): \(outcome.errorMessage ?? "")")
        }
        if let data = outcome.payloadData, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let width = object.keys.map(\.count).max() ?? 0
            for key in object.keys.sorted() {
                guard let value = object[key] else { continue }
                // Nested JWS are shown as their own verified outcome below.
                if outcome.nested.contains(where: { $0.name == key }) { continue }
                lines.append("\(indent)  \(key.padding(toLength: width, withPad: " ", startingAt: 0))  \(describe(value, key: key, indent: indent + "  "))")
            }
        }
        var text = lines.joined(separator: "\n")
        for (name, inner) in outcome.nested {
            text += "\n" + Self.text(inner, location: name, indent: indent + "    ")
        }
        return text
    }

    private static func describe(_ value: Any, key: String, indent: String) -> String {
        if let dictionary = value as? [String: Any] {
            let width = dictionary.keys.map(\.count).max() ?? 0
            return dictionary.keys.sorted().map { inner in
                "\n\(indent)  \(inner.padding(toLength: width, withPad: " ", startingAt: 0))  \(describe(dictionary[inner] ?? NSNull(), key: inner, indent: indent + "  "))"
            }.joined()
        }
        if let number = value as? NSNumber, key.hasSuffix("Date") {
            let milliseconds = number.doubleValue
            return "\(DateFormatting.iso8601(milliseconds: milliseconds))  (\(number))"
        }
        if let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes]) {
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        return "\(value)"
    }
}

/// Dates for people.
enum DateFormatting {
    static func iso8601(milliseconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: milliseconds / 1000))
    }
}
