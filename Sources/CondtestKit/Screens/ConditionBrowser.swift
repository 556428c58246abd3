import ScreenKit
import ToolboxKit

/// `condtest ui`: the Rollout app in a terminal. The first screen lists the conditions' names
/// (`/` filters as you type); Enter opens a `ConditionTester` on the second. Pure state: keys
/// (+Keys) and arriving data (+Receive) change it, `draw` (+Draw) paints it, and `Command`s ask
/// for the network and the case file (+Work). The smallest screen: ARCHITECTURE.md walks
/// through it as the example of how a screen is built on ScreenKit's `Chrome`.
public struct ConditionBrowser: ScreenProgram {
    public enum Command: ScreenCommand, Equatable {
        case loadList
        case loadCondition(id: String)
        /// Back on the list: a condition still loading is not waited for.
        case stopLoading
        case appendCase(line: String, path: String)

        public var policy: CommandPolicy {
            switch self {
            case .loadList: .latest("list")
            case .loadCondition, .stopLoading: .latest("condition")
            case .appendCase: .serial("cases")
            }
        }
    }

    public enum Message: Sendable, Equatable {
        case list(Result<[ConditionSummary], ToolError>)
        case condition(id: String, Result<ConditionRecord, ToolError>)
        case appended(Result<String, ToolError>)
    }

    public internal(set) var chrome: Chrome
    public internal(set) var list = ListView()
    public internal(set) var summaries: [ConditionSummary] = []
    public internal(set) var tester: ConditionTester?
    public internal(set) var outcome: Int32?
    public let casesPath: String?
    var loadingList = true

    public init(server: String, casesPath: String?) {
        self.casesPath = casesPath
        chrome = Chrome(server: server)
    }

    public var status: StatusLine { chrome.status }
    public var showsHelp: Bool { chrome.help != nil }
    public var isBusy: Bool { loadingList || tester?.load == .loading }

    public mutating func start() -> [Command] { [.loadList] }

    public mutating func tick() { chrome.advance() }

    public mutating func resized(rows: Int, columns: Int) -> [Command] {
        chrome.resize(rows: rows, columns: columns)
        list.layout(chrome.body)
        tester?.layout(chrome.inset)
        return []
    }
}
