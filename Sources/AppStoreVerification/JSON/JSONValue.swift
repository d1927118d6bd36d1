/// A parsed JSON value, as ``JSONParser`` produces it.
///
/// Numbers keep their source text, so an integer is decoded exactly (never through a `Double`) and
/// a number that fits no Swift type is reported against the field that holds it.
indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// The number's text, exactly as it appears in the JSON.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members by name; the parser refuses duplicate names, so the mapping loses nothing.
    case object([String: JSONValue])

    /// A word for the value's JSON type, for error messages ("a string", "an object", ...).
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
