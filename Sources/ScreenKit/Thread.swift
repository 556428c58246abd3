#if canImport(Glibc)
import Glibc
#endif

/// A plain POSIX thread for work that must block (the screen's poll loop) without holding one
/// of the few threads Swift's tasks share.
enum Thread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_detach(thread)
    }
}
