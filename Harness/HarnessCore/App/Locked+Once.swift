import HarnessSystem

extension Locked where State == Bool {
    /// Sets the flag and says whether this call set it: true once, false ever after (what an
    /// idempotent `close()` checks first).
    package func setOnce() -> Bool {
        withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
    }
}
