import ArgumentParser
import PasscodeKit
import ToolboxKit

/// `--user`, and the password from the environment or ~/.netrc.
struct CredentialOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The user (default: $PASSCODE_USER, then the login in ~/.netrc).", valueName: "name"))
    var user: String?

    func credentials(for server: ServerURL) throws(ToolError) -> Credentials {
        try Credentials.resolve(userFlag: user, host: server.host)
    }
}
