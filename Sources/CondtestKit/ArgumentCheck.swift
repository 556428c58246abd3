/// The one rule for how many arguments a condition gets, and the one way every command says it
/// is broken: `eval` and `explain` (words on the command line), `eval --all`, `eval --batch`
/// (tab-separated fields) and `condtest test` (a case's arguments).
public enum ArgumentCheck {
    /// nil when `given` arguments suit a condition that takes `wanted`; otherwise the problem,
    /// "the condition takes 2 arguments, got 1". With `extrasIgnored` (batch lines and
    /// `eval --all`, whose conditions take different counts) more than `wanted` is fine, as
    /// awk and cut ignore fields they do not use.
    public static func problem(wanted: Int, given: Int, extrasIgnored: Bool = false) -> String? {
        if given == wanted || (given > wanted && extrasIgnored) { return nil }
        return "the condition takes \(wanted) argument\(wanted == 1 ? "" : "s"), got \(given)"
    }
}
