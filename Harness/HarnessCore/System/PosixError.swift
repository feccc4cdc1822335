// The public name Harness has always given its system-call errors, now the package's one
// error type (HarnessSystem's `SystemError`).

import HarnessSystem

/// A failed system call: an alias of the package's one error type, with the operation, the
/// errno saved right after it and its `strerror` text.
public typealias PosixError = SystemError
