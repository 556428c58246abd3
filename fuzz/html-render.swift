// The HTML body renderer (libxml2's push parser, text and Markdown). Properties: plain output
// holds no ESC, no C1 and no C0 but tab and newline, so a post cannot drive the terminal; and
// libxml2's element stack never goes past HTMLStream.deepest (and the few elements it implies),
// whatever the shape and wherever the pieces are cut (issue 46).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    for format in [RenderFormat.text, .markdown] {
        let output: [UInt8]
        do { output = try PostPage.renderBody(body, options: RenderOptions(format: format, width: 40, styled: false)) } catch {
            fatalError("cannot render: \(error)")  // libxml2 not opened: no run means anything
        }
        var index = 0
        while index < output.count {
            let byte = output[index]
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F {
                fatalError("control byte \(byte) in \(format) output")
            }
            if byte == 0xC2, index + 1 < output.count, (0x80...0x9F).contains(output[index + 1]) {
                fatalError("C1 control in \(format) output")
            }
            index += 1
        }
    }
    for piece in [1, 97, 1 << 16] {
        guard let report = try? HTMLStreamProbe.run(body, piece: piece) else { fatalError("cannot open libxml2") }
        if report.deepest > HTMLStream.deepest + 4 { fatalError("libxml2's stack went \(report.deepest) deep (pieces of \(piece))") }
    }
    return 0
}
