import Testing
import ToolboxKit
@testable import BlogctlKit

/// Issue 63: a feed opened while a refresh asks it waits for that answer.
@Suite struct RefreshesInFlightTests {
    @Test func aFeedNotBeingAskedIsNotJoined() async {
        let inFlight = RefreshesInFlight()
        guard case .notAsked = await inFlight.join("k") else { Issue.record("joined a refresh that is not running"); return }
    }

    @Test func everyJoinerLearnsHowTheRefreshEnded() async {
        let inFlight = RefreshesInFlight()
        inFlight.begin("k")
        async let first = inFlight.join("k")
        async let second = inFlight.join("k")
        // The ends are waited for on the refresh's side: both joined before it ends.
        while inFlight.waiting("k") < 2 { await Task.yield() }
        inFlight.end("k", error: .tryLater("down"))
        for joined in [await first, await second] {
            guard case .failed(let error) = joined else { Issue.record("\(joined)"); continue }
            #expect(error.message.contains("down"))
        }
        inFlight.begin("k")
        async let third = inFlight.join("k")
        while inFlight.waiting("k") < 1 { await Task.yield() }
        inFlight.end("k", error: nil)
        guard case .listed = await third else { Issue.record("not listed"); return }
        guard case .notAsked = await inFlight.join("k") else { Issue.record("still asked after its end"); return }
    }
}
