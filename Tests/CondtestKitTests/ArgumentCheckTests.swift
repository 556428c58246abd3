import Testing
@testable import CondtestKit

@Suite struct ArgumentCheckTests {
    @Test func theExactCountIsFine() {
        #expect(ArgumentCheck.problem(wanted: 2, given: 2) == nil)
        #expect(ArgumentCheck.problem(wanted: 0, given: 0) == nil)
    }

    @Test func tooFewOrTooManyIsOneWording() {
        #expect(ArgumentCheck.problem(wanted: 2, given: 1) == "the condition takes 2 arguments, got 1")
        #expect(ArgumentCheck.problem(wanted: 1, given: 3) == "the condition takes 1 argument, got 3")
        #expect(ArgumentCheck.problem(wanted: 1, given: 0) == "the condition takes 1 argument, got 0")
    }

    @Test func extrasAreIgnoredOnlyWhenAsked() {
        #expect(ArgumentCheck.problem(wanted: 1, given: 3, extrasIgnored: true) == nil)
        #expect(ArgumentCheck.problem(wanted: 3, given: 1, extrasIgnored: true) == "the condition takes 3 arguments, got 1")
    }
}
