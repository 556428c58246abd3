/// A range of delays in milliseconds, written `0`, `150`, `50-150`, `1s-3s`, `250ms`.
public struct LatencyRange: Sendable, Equatable, CustomStringConvertible {
    public let minimum: Int
    public let maximum: Int

    public static let zero = LatencyRange(0, 0)

    public init(_ minimum: Int, _ maximum: Int) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
    }

    /// Parses `MIN[-MAX]`, each a number of milliseconds or a number with `ms`, `s` or `m`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let low = Self.milliseconds(parts[0]),
              let high = parts.count == 2 ? Self.milliseconds(parts[1]) : low,
              low <= high
        else { return nil }
        self.init(low, high)
    }

    static func milliseconds(_ text: Substring) -> Int? {
        let trimmed = text.trimmingCharacters(in: " ")
        let (number, scale): (Substring, Double)
        if trimmed.hasSuffix("ms") { (number, scale) = (trimmed.dropLast(2), 1) }
        else if trimmed.hasSuffix("s") { (number, scale) = (trimmed.dropLast(1), 1000) }
        else if trimmed.hasSuffix("m") { (number, scale) = (trimmed.dropLast(1), 60_000) }
        else { (number, scale) = (trimmed, 1) }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        let result = value * scale
        guard result <= 3_600_000 else { return nil }
        return Int(result.rounded())
    }

    public var description: String { minimum == maximum ? "\(minimum)ms" : "\(minimum)-\(maximum)ms" }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var view = self
        while view.first == set { view.removeFirst() }
        while view.last == set { view.removeLast() }
        return view
    }
}
