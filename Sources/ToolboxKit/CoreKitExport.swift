// Everything above the core sees the core through ToolboxKit too: a command that talks to a
// server imports one module, as before the core was split out.
@_exported import CoreKit
