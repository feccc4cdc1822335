import Testing
@testable import HarnessSystem
