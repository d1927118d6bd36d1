import Hummingbird

/// The console's plain responses: redirects.
enum ConsoleResponses {
    /// `303 See Other` to `location` (a path of this console): after a form, the browser loads the
    /// next page with GET, so reloading it sends nothing again.
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: ConsoleHeaders.noStore])
    }
}
