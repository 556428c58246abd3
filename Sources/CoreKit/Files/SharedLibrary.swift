#if canImport(Glibc)
import Glibc
#endif

/// A C library opened when it is first needed (dlopen), not when the program starts: the
/// dynamic loader maps and relocates every library an executable names at every start, so a
/// `--version` or a completion would pay for ncurses though only a screen draws with it.
/// Opened as the loader would open it (by soname, through the same search path), never closed.
public struct SharedLibrary: @unchecked Sendable {
    /// The soname it was opened by, for messages.
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name` (a soname such as "libncursesw.so.6") and binds all its symbols now, so a
    /// missing one shows here and not in the middle of a screen.
    public init(_ name: String) throws(SharedLibraryError) {
        self.name = name
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            // The loader's words, without the name it repeats first.
            let reason = Self.lastError()
            throw SharedLibraryError(library: name, reason: reason.hasPrefix(name + ": ") ? String(reason.dropFirst(name.count + 2)) : reason)
        }
        self.handle = handle
    }

    /// The function `symbol`, as the C function pointer type `T` the library's header declares
    /// (the shim derives those types from the header, so the two cannot disagree).
    public func function<T>(_ symbol: String) throws(SharedLibraryError) -> T {
        precondition(MemoryLayout<T>.size == MemoryLayout<UnsafeRawPointer>.size, "\(T.self) is not a C function pointer")
        return unsafeBitCast(try address(symbol), to: T.self)
    }

    /// The C variable `symbol` (a global such as ncurses' `stdscr`), read through the pointer.
    public func variable<T>(_ symbol: String, of type: T.Type) throws(SharedLibraryError) -> UnsafeMutablePointer<T> {
        try address(symbol).assumingMemoryBound(to: T.self)
    }

    private func address(_ symbol: String) throws(SharedLibraryError) -> UnsafeMutableRawPointer {
        guard let address = dlsym(handle, symbol) else {
            throw SharedLibraryError(library: name, reason: "no symbol \(symbol)")
        }
        return address
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}

/// Why a library could not be opened or lacks a symbol, in the loader's words.
public struct SharedLibraryError: Error, Sendable, Equatable {
    public let library: String
    public let reason: String

    /// "cannot load libxml2.so.2: cannot open shared object file: No such file or directory"
    public var message: String { "cannot load \(library): \(reason)" }
}
