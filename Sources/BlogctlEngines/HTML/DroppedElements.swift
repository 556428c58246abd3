/// What is inside a dropped element (script, style, head), its elements and text, kept from
/// the layout.
struct DroppedElements {
    private var depth = 0

    /// Whether `event` reaches the layout.
    mutating func passes(_ event: HTMLEvent) -> Bool {
        if depth > 0 {
            switch event {
            case .enter: depth += 1
            case .exit: depth -= 1
            case .text: break
            }
            return false
        }
        if case .enter(.dropped, _) = event {
            depth = 1
            return false
        }
        return true
    }
}
