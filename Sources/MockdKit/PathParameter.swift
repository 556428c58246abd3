import Hummingbird
import ToolboxKit

extension Parameters {
    /// A path parameter, percent-decoded: the clients send opaque ids as one encoded segment
    /// (`a%2Fb` for `a/b`), and the router hands the segment over as it came.
    func decoded(_ name: String) -> String {
        let raw = get(name) ?? ""
        return PercentEncoding.decode(raw) ?? raw
    }
}
