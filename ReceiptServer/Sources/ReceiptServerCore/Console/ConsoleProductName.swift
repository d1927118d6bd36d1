/// A product ID split after each dot, so that the templates can offer a line break there and
/// nowhere else (`{{#productIdParts}}{{.}}<wbr>{{/productIdParts}}`): `com.example.app.premium`
/// wraps as `com.example.` / `app.premium`, never mid-word. Each part is still escaped by the
/// template like every other value.
enum ConsoleProductName {
    /// `id`'s parts, each ending in a dot but the last; joined, they are `id`.
    static func parts(_ id: String) -> [String] {
        var parts: [String] = []
        var current = ""
        for character in id {
            current.append(character)
            if character == "." {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty || parts.isEmpty { parts.append(current) }
        return parts
    }
}
