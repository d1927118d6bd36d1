extension AppStoreServerAPIClient {
    /// The transport of a client given none: ``AsyncHTTPClientTransport`` over one HTTP client
    /// shared by every client of this library, with the `ServerAPIClient` trait;
    /// ``URLSessionAPITransport/shared`` without it.
    public static var defaultTransport: any AppStoreServerAPITransport {
        #if ServerAPIClient
        AsyncHTTPClientTransport()
        #else
        URLSessionAPITransport.shared
        #endif
    }
}
