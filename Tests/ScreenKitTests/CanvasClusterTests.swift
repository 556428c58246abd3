import Testing
@testable import ScreenKit

/// Issue 47: a cluster wider than two columns takes the cells the terminal gives it, each
/// holding at most two columns, so nothing after it is drawn over or cut.
@Suite struct CanvasClusterTests {
    @Test func aSkinToneTakesFourCellsInTwoPairs() {
        var canvas = Canvas(rows: 1, columns: 10)
        #expect(canvas.put("👍🏽x", row: 0, column: 0) == 5)
        #expect(canvas[0, 0].character == "👍" && canvas[0, 1].character == nil)
        #expect(canvas[0, 2].character == "🏽" && canvas[0, 3].character == nil)
        #expect(canvas[0, 4].character == "x")
        #expect(Canvas.cells(of: "a") == ["a"])
        #expect(Canvas.cells(of: "e\u{301}") == ["e\u{301}"])
    }
}
