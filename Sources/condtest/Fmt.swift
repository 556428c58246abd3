import ArgumentParser
import CondtestKit
import FoundationEssentials
import ToolboxKit

extension Condtest {
    struct Fmt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fmt",
            abstract: "Convert a condition between JSON and text syntax.",
            discussion: """
                Reads FILE or stdin. Input starting with { is JSON (a full record or bare \
                ConditionData), anything else text syntax. Without --to, JSON becomes text and \
                text becomes normalised JSON.

                Examples:
                  condtest fmt cond.json
                  echo 'eq(arg1, "rollout.io")' | condtest fmt
                """)

        enum Syntax: String, ExpressibleByArgument, CaseIterable { case json, text }

        @Option(help: ArgumentHelp("The syntax to write.", valueName: "json|text"))
        var to: Syntax?

        @Argument(help: ArgumentHelp("The file to read; - or none is stdin.", valueName: "file"))
        var file: String = "-"

        func run() async throws {
            let data = try ConditionLoader.readFile(file)
            let isJSON = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
            let name = file == "-" ? "stdin" : file
            let condition: Condition
            do {
                if isJSON {
                    condition = try ConditionJSON.decodeRecordOrCondition(data, fallbackName: name).condition
                } else {
                    guard let text = String(validating: data, as: UTF8.self) else {
                        throw ToolError.badData("\(name): not valid UTF-8")
                    }
                    condition = try TextSyntax.parse(text)
                }
            } catch let error as ConditionError {
                throw ToolError.badData("\(name): \(error)")
            }
            switch to ?? (isJSON ? .text : .json) {
            case .text: StandardOutput.print(TextSyntax.format(condition) + "\n")
            case .json: StandardOutput.print(String(decoding: JSONCoding.encode(condition, pretty: true), as: UTF8.self) + "\n")
            }
        }
    }
}
