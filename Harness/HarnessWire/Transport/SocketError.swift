// The public name HarnessWire has always given its socket errors, now the package's one
// error type.

import HarnessSystem

/// A failed system call on a bridge socket: an alias of the package's one error type, with the
/// operation, the errno saved right after it and its `strerror` text.
public typealias SocketError = SystemError
