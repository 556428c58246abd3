import Synchronization

/// A value made on first use, once, and kept: concurrent first uses wait for the one that
/// makes it rather than making it twice.
final class Lazily<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let made = Mutex<Value?>(nil)

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    /// Already made.
    convenience init(_ value: Value) { self.init { value } }

    var value: Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
