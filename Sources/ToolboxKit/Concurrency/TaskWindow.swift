/// The one sliding window of concurrent work: `condtest eval --all`, `blogctl prefetch` and
/// `devsync sync` each run a job per item, at most `width` at a time, starting the next as
/// one finishes, so a slow item holds up one slot and never the whole batch.
public enum TaskWindow {
    /// Runs `work` on each item, at most `width` at once (at least one). `receive` gets each
    /// output with its item's index as it completes, on the calling task (so it may change
    /// local state without a lock); returning false starts no further item, and the items
    /// already running still complete and are received.
    public static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item], width: Int,
        work: @escaping @Sendable (Item) async -> Output,
        receive: (_ index: Int, _ output: Output) -> Bool
    ) async {
        await withTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            var starting = true
            func startNext() {
                guard starting, next < items.count else { return }
                let index = next
                let item = items[index]
                next += 1
                group.addTask { (index, await work(item)) }
            }
            for _ in 0..<max(1, width) { startNext() }
            while let (index, output) = await group.next() {
                if !receive(index, output) { starting = false }
                startNext()
            }
        }
    }

    /// The outputs in the order of `items`; `progress` gets (done, total) after each one.
    public static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], width: Int,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
        work: @escaping @Sendable (Item) async -> Output
    ) async -> [Output] {
        var outputs = [Output?](repeating: nil, count: items.count)
        var done = 0
        await run(items, width: width, work: work) { index, output in
            outputs[index] = output
            done += 1
            progress(done, items.count)
            return true
        }
        return outputs.map { $0! }
    }
}
