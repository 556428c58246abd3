/// What a sub-screen (a post's reader, a device's detail, a condition's tester) answers the
/// screen that opened it, for a key: the cases every sub-screen shares, or a request of its
/// own that the parent turns into commands.
public enum SubScreenReply<Request: Sendable & Equatable>: Sendable, Equatable {
    /// The key was the sub-screen's, and it did what the key says.
    case handled
    /// Not a key of the sub-screen's: the parent may use it.
    case ignored
    /// Close the sub-screen (Esc, q where q is not text).
    case back
    /// Open the help overlay for the sub-screen's keys.
    case help
    /// Leave the program.
    case quit
    case request(Request)
}
