// config.yml (issue 37). Properties: any text reads without a crash, each problem on a line
// of the text; the entries read, written back as YAML (`ConfigFile.render`), read back the
// same: keys, values and mappings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file = ConfigFile(text)
    let lines = text.unicodeScalars.count(where: { $0 == "\n" }) + 1
    for problem in file.problems where !(1...lines).contains(problem.line) { fatalError("a problem outside the text: \(problem)") }
    // Entries from the input itself: values cut at 0x1F, under keys and mappings it picks.
    let values = UnsafeBufferPointer(start: data, count: size).split(separator: 0x1F, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let keys = ["server", "timeout", "proxy", "pager", "x_1"]
    let entries = values.enumerated().map { index, value in
        ConfigFile.Entry(key: keys[index % keys.count], value: value, line: 0, section: index % 3 == 0 ? nil : index % 3 == 1 ? "condtest" : "devsync")
    }
    let back = ConfigFile(ConfigFile.render(entries))
    let order = entries.compactMap(\.section).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let ordered = entries.filter { $0.section == nil } + order.flatMap { section in entries.filter { $0.section == section } }
    guard back.problems.isEmpty,
          back.entries.map({ [$0.key, $0.value, $0.section ?? ""] }) == ordered.map({ [$0.key, $0.value, $0.section ?? ""] }) else {
        fatalError("entries written as YAML read back differently: \(values.debugDescription)")
    }
    return 0
}
