import Testing
@testable import MockdKit

@Suite struct FaultTests {
    @Test func latencyRangesParse() {
        #expect(LatencyRange(parsing: "0") == LatencyRange(0, 0))
        #expect(LatencyRange(parsing: "150") == LatencyRange(150, 150))
        #expect(LatencyRange(parsing: "50-150") == LatencyRange(50, 150))
        #expect(LatencyRange(parsing: "1s-3s") == LatencyRange(1000, 3000))
        #expect(LatencyRange(parsing: "250ms-1s") == LatencyRange(250, 1000))
        #expect(LatencyRange(parsing: "0.5s") == LatencyRange(500, 500))
        for bad in ["", "-", "a", "5-1", "-5", "1-2-3", "1h", "nan", "inf"] {
            #expect(LatencyRange(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func theSameSeedGivesTheSameFaults() {
        let profile = FaultProfile(latency: LatencyRange(10, 90), failureRate: 0.3)
        let first = FaultInjector(seed: 7)
        let second = FaultInjector(seed: 7)
        let a = (0..<200).map { _ in first.decide(profile) }
        let b = (0..<200).map { _ in second.decide(profile) }
        #expect(a == b)
        #expect(a != (0..<200).map { _ in FaultInjector(seed: 8).decide(profile) })
    }

    @Test func delaysStayInTheRangeAndTheRateIsRoughlyKept() {
        let injector = FaultInjector(seed: 42)
        let profile = FaultProfile(latency: LatencyRange(50, 150), failureRate: 0.1)
        let decisions = (0..<10_000).map { _ in injector.decide(profile) }
        #expect(decisions.allSatisfy { (50...150).contains($0.delayMilliseconds) })
        #expect(Set(decisions.map(\.delayMilliseconds)).count > 90)
        let failures = decisions.filter(\.fails).count
        #expect((850...1150).contains(failures))
    }

    @Test func zeroAndOneFailureRatesAreExact() {
        let injector = FaultInjector(seed: 1)
        #expect((0..<1000).allSatisfy { _ in !injector.decide(FaultProfile(failureRate: 0)).fails })
        #expect((0..<1000).allSatisfy { _ in injector.decide(FaultProfile(failureRate: 1)).fails })
    }

    @Test func commandLineOverridesTheAPIDefaults() {
        let defaults = FaultProfile(latency: LatencyRange(1000, 3000), failureRate: 0.1)
        var configuration = MockdConfiguration()
        #expect(configuration.profile(defaults) == defaults)
        configuration.latency = .zero
        #expect(configuration.profile(defaults) == FaultProfile(latency: .zero, failureRate: 0.1))
        configuration.failureRate = 0.5
        #expect(configuration.profile(defaults) == FaultProfile(latency: .zero, failureRate: 0.5))
    }
}
