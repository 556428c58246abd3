/// Byte counts written by people: `500000`, `500K`, `200M`, `1G` (powers of 1000, as `--si`;
/// `KiB`/`MiB`/`GiB` for powers of 1024).
public enum ByteSize {
    public static func parse(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30),
                                      ("kB", 1000), ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
                                      ("K", 1000), ("k", 1000), ("M", 1_000_000), ("G", 1_000_000_000), ("B", 1)]
        var number = Substring(text)
        var scale = 1
        for (suffix, value) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = value
            break
        }
        guard let value = Int(number), value >= 0 else { return nil }
        let (result, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : result
    }
}
