#if canImport(Glibc)
import Glibc
#endif

/// Reads a file descriptor on a thread of its own with blocking read(2), handing each
/// chunk to `onChunk` and an empty chunk at the end. Waiting for a key then costs no CPU at
/// all, and no thread of Swift's cooperative pool is held.
public enum BlockingReader {
    private final class Job: Sendable {
        let fd: Int32
        let onChunk: @Sendable ([UInt8]) -> Void
        init(fd: Int32, onChunk: @escaping @Sendable ([UInt8]) -> Void) {
            self.fd = fd
            self.onChunk = onChunk
        }
    }

    public static func start(fd: Int32, onChunk: @escaping @Sendable ([UInt8]) -> Void) {
        let job = Unmanaged.passRetained(Job(fd: fd, onChunk: onChunk)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(job.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    job.onChunk([])
                    return nil
                }
                job.onChunk(Array(buffer[0..<count]))
            }
        }, job)
        pthread_detach(thread)
    }
}
