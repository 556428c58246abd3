import Synchronization
import Testing
@testable import PasscodeKit
import ToolboxKit

/// A server that answers each call with a fresh code and layout, halves in either order,
/// from concurrent tasks, failing some calls: everything a real network can do, seeded.
final class ChaosSource: InternalsSource {
    struct State {
        var generator: SeededGenerator
        var issued: [String: [Int]] = [:]  // every (code → layout) pair one call produced
        var calls = 0
    }
    let state: Mutex<State>

    init(seed: UInt64) { state = Mutex(State(generator: SeededGenerator(seed: seed))) }

    func fetch(_ deliver: @escaping @Sendable (Arrival) async -> Void) async throws(ToolError) {
        let (code, setup, fails, codeFirst) = state.withLock { state in
            state.calls += 1
            var digits = Array(0...9)
            for index in stride(from: 9, to: 0, by: -1) { digits.swapAt(index, Int(state.generator.next() % UInt64(index + 1))) }
            // The code names the call, so a mixed-up pair would be caught.
            let code = String(format4: state.calls % 10_000)
            state.issued[code] = digits
            return (code, digits, state.generator.next() % 10 == 0, state.generator.next() % 2 == 0)
        }
        if fails { throw .unreachable(url: "chaos", reason: "connection refused") }
        // Both halves race from their own tasks, as the two completion blocks did.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { if !codeFirst { await Task.yield() }; await deliver(.code(code)) }
            group.addTask { if codeFirst { await Task.yield() }; await deliver(.setup(setup)) }
        }
    }

    func issuedLayout(for code: String) -> [Int]? { state.withLock { $0.issued[code] } }
}

extension String {
    init(format4 value: Int) {
        let digits = String(value)
        self = String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }
}

@Suite struct SessionStressTests {
    final class Violations: Sendable {
        let list = Mutex<[String]>([])
        func add(_ text: String) { list.withLock { if $0.count < 20 { $0.append(text) } } }
        var all: [String] { list.withLock { $0 } }
    }

    @Test func tenThousandCyclesKeepEveryInvariant() async throws {
        let source = ChaosSource(seed: 42)
        let violations = Violations()
        let unlocks = Mutex(0)
        let session = PasscodeSession(source: source, sleep: { _ in await Task.yield() }, random: { 0.5 }) { snapshot in
            let machine = snapshot.machine
            if snapshot.effects.contains(.unlocked) { unlocks.withLock { $0 += 1 } }
            // The layout is always a permutation of 0…9.
            if Set(machine.layout) != Set(0...9) || machine.layout.count != 10 { violations.add("bad layout \(machine.layout)") }
            switch machine.phase {
            case .ready(let code, let entered):
                // A layout and code always from the same call.
                if source.issuedLayout(for: code) != machine.layout { violations.add("code \(code) with a layout from another call") }
                if entered.count >= PasscodeMachine.codeLength { violations.add("\(entered.count) digits entered") }
            case .loading, .failed:
                // Entered digits exist only in `.ready` (the phase's type says so); that keys
                // pressed while loading are dropped, not queued, is keysWhileLoadingAreDroppedNotQueued.
                break
            }
        }
        await session.send(.start)
        var generator = SeededGenerator(seed: 7)
        var cycles = 0
        while cycles < 10_000 {
            // Random keys race the arrivals of the call just started: those that land while
            // loading must be dropped, those that land after ready are ordinary presses.
            let burst = (0..<5).map { _ in generator.next() % 12 }
            let presser = Task {
                for key in burst {
                    switch key {
                    case 10: await session.send(.delete)
                    case 11: await session.send(.cancel)
                    default: await session.send(.digit(Int(key)))
                    }
                    await Task.yield()
                }
            }
            await presser.value
            if let error = await session.waitUntilReady() { Issue.record("gave up: \(error)"); break }
            guard case .ready(let code, _) = await session.state.phase else { continue }
            await session.send(.cancel)
            // Sometimes a wrong code first (rejected), then the right one (unlocked).
            if generator.next() % 4 == 0 {
                let wrong = code == "0000" ? "1111" : "0000"
                for character in wrong { await session.send(.digit(Int(String(character))!)) }
            }
            for character in code { await session.send(.digit(Int(String(character))!)) }
            cycles += 1
        }
        await session.stop()
        #expect(unlocks.withLock { $0 } == 10_000)
        #expect(violations.all.isEmpty, "\(violations.all)")
        #expect(source.state.withLock { $0.calls } > 10_000)
    }

    @Test func keysWhileLoadingAreDroppedNotQueued() async {
        let source = ChaosSource(seed: 1)
        let session = PasscodeSession(source: source, observer: { _ in })
        // Not started: the machine is loading call 0, and nothing it receives is kept.
        for digit in 0..<10 { await session.send(.digit(digit)) }
        #expect(await session.state.progress == 0)
        await session.send(.start)
        _ = await session.waitUntilReady()
        #expect(await session.state.progress == 0)
        await session.stop()
    }
}
