import CoreKit

/// The text syntax of conditions, which round-trips with JSON:
/// `and(ne(arg1, "rollout.io"), containsString(arg1, "ro"))`. Operators are identifiers,
/// arguments are `argN`, strings are JSON string literals with their escapes.
public enum TextSyntax {
    /// The condition in text syntax, on one line.
    public static func format(_ condition: Condition) -> String {
        formatWithColumns(condition).text
    }

    public static func format(_ operand: Operand) -> String {
        switch operand {
        case .condition(let condition): return format(condition)
        case .string(let value): return literal(value)
        case .argument(let number): return "arg\(number)"
        }
    }

    /// The text syntax, and the 1-based column (in Unicode scalars, as parse errors count)
    /// where each operator node starts, in pre-order: a node, then its operands' nodes.
    public static func formatWithColumns(_ condition: Condition) -> (text: String, columns: [Int]) {
        var writer = Writer()
        writer.write(condition)
        return (writer.text, writer.columns)
    }

    private struct Writer {
        var text = ""
        var length = 0
        var columns: [Int] = []

        mutating func append(_ piece: String) {
            text += piece
            length += piece.unicodeScalars.count
        }

        mutating func write(_ condition: Condition) {
            columns.append(length + 1)
            append(condition.op)
            append("(")
            for (index, operand) in condition.args.enumerated() {
                if index > 0 { append(", ") }
                switch operand {
                case .condition(let nested): write(nested)
                case .string(let value): append(TextSyntax.literal(value))
                case .argument(let number): append("arg\(number)")
                }
            }
            append(")")
        }
    }

    /// A JSON string literal. Controls, DEL, C1 controls and bidi controls are escaped, so the
    /// text is safe on a terminal, reads in its own order, and parses back to the same string.
    public static func literal(_ value: String) -> String {
        "\"" + escapedBody(value) + "\""
    }

    static func escapedBody(_ value: String) -> String { value.escapedForDoubleQuotes() }

    /// Parses the text syntax. Errors say at which column (1-based, in characters).
    public static func parse(_ source: String, registry: OperatorRegistry = .standard) throws(ConditionError) -> Condition {
        var parser = TextParser(source: source, registry: registry)
        return try parser.parseAll()
    }
}

/// A recursive-descent parser over Unicode scalars, bounded in depth.
struct TextParser {
    let scalars: [Unicode.Scalar]
    let registry: OperatorRegistry
    var position = 0

    init(source: String, registry: OperatorRegistry) {
        self.scalars = Array(source.unicodeScalars)
        self.registry = registry
    }

    mutating func parseAll() throws(ConditionError) -> Condition {
        skipSpace()
        let condition = try parseCondition(depth: 1)
        skipSpace()
        guard position == scalars.count else { throw error("unexpected \(describeHere()) after the condition") }
        return condition
    }

    private mutating func parseCondition(depth: Int) throws(ConditionError) -> Condition {
        guard depth <= Condition.maximumDepth else {
            throw error("nested deeper than \(Condition.maximumDepth) levels")
        }
        let start = position
        let name = identifier()
        guard !name.isEmpty else { throw error("expected an operator name, found \(describeHere())") }
        skipSpace()
        guard take("(") else {
            if Self.argumentNumber(name) != nil {
                throw error("expected a condition, found the argument \(name)", at: start)
            }
            throw error("expected \"(\" after \"\(name)\", found \(describeHere())")
        }
        guard registry.entry(name) != nil else {
            let hint = registry.suggestion(for: name).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw error("unknown operator \"\(name)\"\(hint)", at: start)
        }
        var args: [Operand] = []
        var starts: [Int] = []
        skipSpace()
        if !take(")") {
            while true {
                skipSpace()
                starts.append(position)
                args.append(try parseOperand(depth: depth))
                skipSpace()
                if take(")") { break }
                guard take(",") else { throw error("expected \",\" or \")\", found \(describeHere())") }
            }
        }
        do {
            return try Condition(op: name, args: args, registry: registry)
        } catch {
            // Point at the operand in question when the problem is one operand's kind.
            if let index = Self.operandIndex(error.path), index < starts.count {
                throw self.error(error.problem, at: starts[index])
            }
            throw self.error(error.problem, at: start)
        }
    }

    private mutating func parseOperand(depth: Int) throws(ConditionError) -> Operand {
        guard let scalar = peek() else { throw error("expected an operand, found the end") }
        if scalar == "\"" { return .string(try stringLiteral()) }
        let start = position
        let name = identifier()
        guard !name.isEmpty else { throw error("expected a condition, argN or a \"string\", found \(describeHere())") }
        skipSpace()
        if peek() == "(" {
            position = start
            return .condition(try parseCondition(depth: depth + 1))
        }
        guard let number = Self.argumentNumber(name) else {
            throw error("unknown name \"\(name)\": arguments are arg1, arg2, …", at: start)
        }
        guard (1...Condition.maximumArgument).contains(number) else {
            throw error("argument numbers run from 1 to \(Condition.maximumArgument), found \(name)", at: start)
        }
        return .argument(number)
    }

    /// `arg12` → 12; nil for other names.
    static func argumentNumber(_ name: String) -> Int? {
        guard name.hasPrefix("arg"), name.count > 3 else { return nil }
        let digits = name.dropFirst(3)
        guard digits.allSatisfy(\.isASCIIDigit), digits.count <= 9 else { return digits.allSatisfy(\.isASCIIDigit) ? Int.max : nil }
        return Int(digits)
    }

    static func operandIndex(_ path: String) -> Int? {
        guard path.hasPrefix("args["), path.hasSuffix("]") else { return nil }
        return Int(path.dropFirst(5).dropLast())
    }

    private mutating func stringLiteral() throws(ConditionError) -> String {
        let start = position
        position += 1
        var result = String.UnicodeScalarView()
        while let scalar = peek() {
            position += 1
            switch scalar {
            case "\"":
                return String(result)
            case "\\":
                guard let escape = peek() else { break }
                position += 1
                if let plain = String.unescaped(letter: escape) {
                    result.append(plain)
                } else if escape == "u" {
                    result.append(try unicodeEscape())
                } else {
                    throw error("invalid escape \"\\\(escape)\" in a string", at: position - 2)
                }
            case _ where scalar.value < 0x20:
                throw error("control character U+\(String(scalar.value, radix: 16, uppercase: true)) in a string: write it as an escape", at: position - 1)
            default:
                result.append(scalar)
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func unicodeEscape() throws(ConditionError) -> Unicode.Scalar {
        let start = position - 2
        let high = try hex4(start)
        if (0xD800...0xDBFF).contains(high) {
            guard take("\\"), take("u") else { throw error("lone surrogate \\u\(String(high, radix: 16))", at: start) }
            let low = try hex4(start)
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair", at: start) }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("lone surrogate \\u\(String(high, radix: 16))", at: start) }
        return scalar
    }

    private mutating func hex4(_ start: Int) throws(ConditionError) -> UInt32 {
        guard position + 4 <= scalars.count else { throw error("\\u needs four hex digits", at: start) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(scalars[position]) else { throw error("\\u needs four hex digits", at: start) }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    private mutating func identifier() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = peek(), scalar.isASCII,
              (scalar.properties.isAlphabetic || scalar == "_" || (!name.isEmpty && ("0"..."9").contains(scalar))) {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    private mutating func skipSpace() {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { position += 1 }
    }

    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek() == scalar else { return false }
        position += 1
        return true
    }

    private func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func describeHere() -> String {
        guard let scalar = peek() else { return "the end" }
        return "\"" + TextSyntax.escapedBody(String(scalar)) + "\""
    }

    private func error(_ problem: String, at index: Int? = nil) -> ConditionError {
        ConditionError(path: "column \((index ?? position) + 1)", problem: problem)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
