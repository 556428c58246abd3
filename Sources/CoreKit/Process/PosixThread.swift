#if canImport(Glibc)
import Glibc
#endif

/// A plain POSIX thread for work that must block (the screen's poll loop, a feed command's
/// pipes) without holding one of the few threads Swift's tasks share.
public enum PosixThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    public static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_detach(thread)
    }

    /// `body`'s result, run on a thread of its own: for blocking work an async caller awaits.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in start { continuation.resume(returning: body()) } }
    }
}
