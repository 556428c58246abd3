/// Caps on the command line, checked before ArgumentParser sees it: its parsing grows with
/// the square of the number of arguments (30,000 words took 40 s), and its errors echo an
/// argument whole. No command of the toolbox needs more: batches of ids come from a file
/// (`devsync import`), and `condtest eval` takes at most 64 arguments anyway.
public enum ArgumentLimits {
    public static let count = 1_024
    public static let bytes = 64 << 10

    /// The first argument of this process that is not valid UTF-8, as one line: Swift would
    /// hand it over with U+FFFD in place of its bytes (checked on the raw bytes), and an id,
    /// an argument to `eval` or a file name so changed is another one. Every tool refuses it
    /// (bad data, exit 65), as the one id rule refuses what cannot be represented.
    public static func invalidEncoding() -> String? {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: pointer) == nil {
                return "command-line argument \(index) is not valid UTF-8"
            }
        }
        return nil
    }

    /// What is wrong with `arguments`, as one line; nil when they are within the caps.
    public static func problem(_ arguments: [String]) -> String? {
        if arguments.count > count {
            return "too many arguments (\(arguments.count)); at most \(count) are taken"
        }
        if let index = arguments.firstIndex(where: { $0.utf8.count > bytes }) {
            return "argument \(index + 1) is \(arguments[index].utf8.count) bytes long; at most \(bytes >> 10) KiB is taken"
        }
        return nil
    }
}
