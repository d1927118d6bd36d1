/// A payload with members every genuine one carries: a verified payload lacking one is
/// ``VerificationError/missingRequiredProperties(_:)``, so its non-optional accessors never read a
/// placeholder.
protocol RequiredMembers {
    /// The required members this payload lacks.
    var missingRequiredMembers: [String] { get }
}

extension Transaction: RequiredMembers {}
