import CoreKit

extension Tool {
    /// The name `condtest` goes by: its messages, `$CONDTEST_SERVER`, its folders.
    public static let condtest = Tool("condtest")
}
