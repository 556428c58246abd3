import ScreenKit
import ToolboxKit

extension PasscodeScreen {
    public func draw(into canvas: inout Canvas) {
        let status: KeypadView.Status
        if let feedback {
            status = feedback.status
        } else {
            switch machine.phase {
            case .loading: status = .loading(frame: chrome.tick)
            case .failed(_, let message): status = .error(message, retrying: !failureIsPermanent)
            case .ready: status = .ready
            }
        }
        let hint = chrome.footer(Self.keys.hints)
        KeypadView(width: canvas.columns, height: canvas.rows).draw(into: &canvas, machine: machine, selected: selected, status: status,
                                                                    hint: hint)
        chrome.help?.draw(into: &canvas)
    }
}
