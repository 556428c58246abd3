import Testing
@testable import PasscodeKit
import ToolboxKit

@Suite struct NetrcTests {
    @Test func machinesLoginsAndPasswords() {
        let netrc = Netrc(parsing: """
            machine api.example.com login alice password s3cret
            machine 127.0.0.1
              login Runloop
              password Run!@0p
            default login guest password guest
            """)
        #expect(netrc.entry(for: "127.0.0.1") == .init(machine: "127.0.0.1", login: "Runloop", password: "Run!@0p"))
        #expect(netrc.entry(for: "api.example.com")?.password == "s3cret")
        #expect(netrc.entry(for: "elsewhere")?.login == "guest")
    }

    @Test func quotedTokensAndMacros() {
        let netrc = Netrc(parsing: """
            macdef init
            cd /pub
            machine fake login x password y

            machine h login "a b" password "p\\"q"
            """)
        #expect(netrc.entries.count == 1)
        #expect(netrc.entry(for: "h") == .init(machine: "h", login: "a b", password: "p\"q"))
    }

    @Test func credentialsComeFromTheEnvironmentThenNetrc() throws {
        let netrc = "machine 127.0.0.1 login Runloop password fromnetrc"
        let fromEnv = try Credentials.resolve(userFlag: nil, host: "127.0.0.1",
                                              environment: ["PASSCODE_USER": "Runloop", "PASSCODE_PASSWORD": "env"], netrcText: netrc)
        #expect(fromEnv == Credentials(user: "Runloop", password: "env"))
        let fromNetrc = try Credentials.resolve(userFlag: nil, host: "127.0.0.1", environment: [:], netrcText: netrc)
        #expect(fromNetrc == Credentials(user: "Runloop", password: "fromnetrc"))
        #expect(fromNetrc.authorizationHeader == "Basic UnVubG9vcDpmcm9tbmV0cmM=")
        #expect(throws: ToolError.self) { try Credentials.resolve(userFlag: "other", host: "127.0.0.1", environment: [:], netrcText: netrc) }
        #expect(throws: ToolError.self) { try Credentials.resolve(userFlag: nil, host: "h", environment: [:], netrcText: "") }
    }

    @Test func base64() {
        #expect(Base64.encode(Array("Runloop:Run!@0p".utf8)) == "UnVubG9vcDpSdW4hQDBw")
        #expect(Base64.encode(Array("a".utf8)) == "YQ==")
        #expect(Base64.encode(Array("ab".utf8)) == "YWI=")
        #expect(Base64.encode([]) == "")
    }
}
