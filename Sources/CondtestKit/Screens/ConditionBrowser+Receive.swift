import ScreenKit
import ToolboxKit

extension ConditionBrowser {
    public mutating func receive(_ message: Message) -> [Command] {
        switch message {
        case .list(.success(let summaries)):
            loadingList = false
            self.summaries = summaries
            list.setSections([ListView.Section(items: summaries.map(\.name))])
            chrome.status.online = true
            chrome.status.error = nil
        case .list(.failure(let failure)):
            loadingList = false
            chrome.status.online = failure.exitStatus != .unavailable
            chrome.status.error = failure.brief + " (r retries)"
        case .condition(let id, let result):
            guard var tester, tester.summary.id == id else { return [] }
            switch result {
            case .success(let record): tester.loaded(record)
            case .failure(let failure):
                tester.failed(failure.brief)
                if failure.exitStatus == .unavailable { chrome.status.online = false }
            }
            self.tester = tester
        case .appended(.success(let line)):
            chrome.notice = "appended: " + line
        case .appended(.failure(let failure)):
            chrome.status.error = failure.brief
        }
        return []
    }
}
