#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CoreKit
@testable import ToolboxKit

@Suite struct SharedLibraryTests {
    @Test func aFunctionIsCalledThroughItsPointer() throws {
        let libc = try SharedLibrary("libc.so.6")
        let length: @convention(c) (UnsafePointer<CChar>?) -> Int = try libc.function("strlen")
        #expect(length("condition") == 9)
    }

    @Test func aVariableIsReadThroughItsAddress() throws {
        let libc = try SharedLibrary("libc.so.6")
        // environ: the same array the process sees.
        let environment = try libc.variable("environ", of: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self)
        #expect(environment.pointee == Glibc.environ)
    }

    @Test func aMissingLibraryIsNamedWithTheLoadersReason() {
        #expect {
            _ = try SharedLibrary("libtoolbox-none.so.1")
        } throws: { error in
            let message = (error as? SharedLibraryError)?.message ?? ""
            return message == "cannot load libtoolbox-none.so.1: cannot open shared object file: No such file or directory"
        }
    }

    @Test func aMissingSymbolIsNamed() throws {
        let libc = try SharedLibrary("libc.so.6")
        #expect {
            let _: @convention(c) () -> Int32 = try libc.function("toolbox_no_such_function")
        } throws: { error in
            (error as? SharedLibraryError)?.message == "cannot load libc.so.6: no symbol toolbox_no_such_function"
        }
    }
}
