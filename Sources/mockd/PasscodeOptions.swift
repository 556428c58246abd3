import ArgumentParser
import MockdKit

/// The passcode API's login and the codes it chooses from.
struct PasscodeOptions: ParsableArguments {
    @Option(name: .customLong("passcode-user"), help: ArgumentHelp("The passcode API's user.", valueName: "name"))
    var passcodeUser = "Runloop"

    @Option(name: .customLong("passcode-password"), help: ArgumentHelp("The passcode API's password.", valueName: "password"))
    var passcodePassword = "Run!@0p"

    @Option(name: .customLong("passcode-codes"),
            help: ArgumentHelp("Comma-separated 4-digit codes the passcode API chooses from (default: any).", valueName: "list"))
    var passcodeCodes: String?

    func validate() throws {
        if let passcodeCodes, PasscodeAPI.parseCodes(passcodeCodes) == nil {
            throw ValidationError("invalid --passcode-codes \"\(passcodeCodes)\": use 4-digit codes separated by commas")
        }
    }
}
