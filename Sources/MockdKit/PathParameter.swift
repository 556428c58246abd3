import Foundation
import Hummingbird

extension Parameters {
    /// A path parameter, percent-decoded: the clients send opaque ids as one encoded segment
    /// (`a%2Fb` for `a/b`), and the router hands the segment over as it came.
    func decoded(_ name: String) -> String {
        let raw = get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
