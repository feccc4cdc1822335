import Foundation
import Testing
@testable import Stubs

/// A stub server in process listens on loopback only: nothing but this machine can reach it.
@Suite struct StubServerLoopbackTests {
    @Test(arguments: ["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "[::1]", "localhost"])
    func loopbackSpellings(address: String) throws {
        #expect(try StubHost(address).isLoopback)
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.1", "::ffff:127.0.0.1", "::2", "fe80::1"])
    func otherAddressesAreNotLoopback(address: String) throws {
        #expect(try !StubHost(address).isLoopback)
    }

    @Test(arguments: ["0.0.0.0", "::"])
    func aServerRefusesToListenBeyondLoopback(address: String) throws {
        let error = #expect(throws: StubServerError.self) { try StubServer(host: StubHost(address)) }
        #expect(error?.description.hasPrefix("refusing to listen on \(address): it is not a loopback address") == true,
                "\(String(describing: error))")
    }
}
