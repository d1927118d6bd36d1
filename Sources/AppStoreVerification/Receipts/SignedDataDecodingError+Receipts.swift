extension SignedDataDecodingError.Code {
    /// The input is not an app receipt: not base64 of a PKCS#7 SignedData with attached content and
    /// one signer, or its payload is not a strictly encoded receipt attribute SET.
    public static let malformedReceipt = SignedDataDecodingError.Code(rawValue: "malformedReceipt")
}
