import Foundation
import HarnessHost
import HarnessWire
import Testing
import TestSupport
import Harness
@testable import HarnessCore

/// The host and the listener in one process: fast tests of the protocol's behaviour.
@Suite struct BridgeInProcessTests {
    struct Connected {
        let listener: BridgeListener
        let host: HarnessHost
        let app: AppBridge
    }

    static func connect(
        exitGrace: Duration = .milliseconds(500), configure: (HarnessHost) -> Void = { _ in }
    ) async throws -> Connected {
        let listener = try BridgeListener(options: LaunchOptions(initialState: "loading"), exitGrace: exitGrace)
        let (arguments, environment) = (listener.arguments, listener.environment)
        let launch = try await offPool {
            try HarnessHost.start(arguments: ["app", "--own"] + arguments, environment: environment, appName: "inproc")
        }
        let host = try #require(launch.host, "\(launch.bridgeError.map { "\($0)" } ?? "")")
        #expect(launch.remainingArguments == ["app", "--own"])
        #expect(launch.options?.initialState == "loading")
        configure(host)
        host.ready()
        let app = try await listener.readyBridge()
        return Connected(listener: listener, host: host, app: app)
    }

    @Test func privateDirectoryIsPrivateAndRemovedOnClose() throws {
        let listener = try BridgeListener()
        let attributes = try FileManager.default.attributesOfItem(atPath: listener.directory)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(FileManager.default.fileExists(atPath: listener.socketPath))
        #expect(listener.launchOptions.bridgeToken?.count == 64)
        #expect(!listener.arguments.contains(listener.launchOptions.bridgeToken!))
        #expect(listener.environment["HARNESS_BRIDGE_TOKEN"] == listener.launchOptions.bridgeToken)
        listener.close()
        listener.close()
        #expect(!FileManager.default.fileExists(atPath: listener.directory))
    }

    @Test func repliesResumeTheCallerOffTheLoop() async throws {
        let connected = try await Self.connect { host in
            host.handle("double", as: Int.self) { $0 * 2 }
        }
        defer { connected.listener.close(); connected.host.close() }
        let app = connected.app
        var values: [Int] = []
        var onBridgeThread: Set<Bool> = [app.client.isOnBridgeThread]
        for index in 0..<50 {
            values.append(try await app.call("double", index, as: Int.self))
            onBridgeThread.insert(app.client.isOnBridgeThread)
        }
        #expect(values == (0..<50).map { $0 * 2 })
        #expect(onBridgeThread == [false])
    }

    @Test func callsAfterTheBridgeEndedFailAtOnce() async throws {
        let connected = try await Self.connect { host in
            host.handle("vanish", as: Int.self) { _ in
                host.close()
                return 0
            }
        }
        defer { connected.listener.close(); connected.host.close() }
        let app = connected.app
        let outcome: String
        do {
            _ = try await app.call("vanish", 1, as: Int.self)
            outcome = "replied"
        } catch {
            do {
                _ = try await app.call("vanish", 2, as: Int.self)
                outcome = "second call replied"
            } catch {
                outcome = "\(error)"
            }
        }
        #expect(outcome.contains("closed") || outcome.contains("lost") || outcome.contains("said goodbye"), "\(outcome)")
    }

    @Test func thousandConcurrentCalls() async throws {
        let connected = try await Self.connect { host in
            host.handle("double", as: Int.self) { $0 * 2 }
        }
        defer { connected.listener.close(); connected.host.close() }
        let app = connected.app
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<1000 {
                group.addTask { (index, try await app.call("double", index, as: Int.self, timeout: .seconds(60))) }
            }
            var results: [Int: Int] = [:]
            for try await (index, value) in group { results[index] = value }
            return results
        }
        #expect(results.count == 1000)
        #expect(results.allSatisfy { $0.value == $0.key * 2 })
    }

    @Test func eventsArriveInOrderFromManyThreads() async throws {
        let connected = try await Self.connect()
        defer { connected.listener.close(); connected.host.close() }
        let host = connected.host
        // Four threads publish concurrently; seq numbers must be gapless and in arrival order,
        // and each thread's own values must stay in its publish order.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 { host.publish("tick", [thread, index]) }
        }
        let events = try await connected.app.nextEvents(1000, named: "tick", timeout: mustSucceedTimeout)
        #expect(events.map(\.seq) == Array(0..<1000))
        let pairs = try events.map { try $0.decode(as: [Int].self) }
        for thread in 0..<4 {
            #expect(pairs.filter { $0[0] == thread }.map { $0[1] } == Array(0..<250))
        }
        // The stream replays from the first event.
        var seen: [UInt64] = []
        for await event in connected.app.events {
            seen.append(event.seq)
            if seen.count == 1000 { break }
        }
        #expect(seen == Array(0..<1000))
    }

    @Test func nextEventsKeepsACursorPerName() async throws {
        let connected = try await Self.connect()
        defer { connected.listener.close(); connected.host.close() }
        for state in ["idle", "loading", "loaded"] {
            connected.host.publish("state", state)
            connected.host.publish("other", 0)
        }
        let first = try await connected.app.nextEvents(2, named: "state", timeout: mustSucceedTimeout)
        let second = try await connected.app.nextEvent(named: "state", timeout: mustSucceedTimeout)
        #expect(try first.map { try $0.decode(as: String.self) } == ["idle", "loading"])
        #expect(try second.decode(as: String.self) == "loaded")
        #expect(try await connected.app.nextEvents(3, named: "other", timeout: mustSucceedTimeout).count == 3)
        await #expect {
            _ = try await examiningFailures { try await connected.app.nextEvent(named: "state", timeout: .milliseconds(50)) }
        } throws: { error in
            guard case BridgeError.waitTimedOut(_, _, let received, _, _) = error else { return false }
            return received.contains("loaded")
        }
    }

    /// A bridge wait that times out says where it was written (the glue of `Harness` records
    /// the test's issue there), and its description begins with that place.
    @Test func aTimedOutWaitCarriesItsPlace() async throws {
        let connected = try await Self.connect { host in _ = host.spy("database.save", of: [Int].self) }
        defer { connected.listener.close(); connected.host.close() }
        let spy = connected.app.spy("database.save", as: [Int].self)
        let waits: [(line: Int, wait: () async throws -> Void)] = [
            (#line, { _ = try await connected.app.nextEvent(named: "never", timeout: .milliseconds(1)) }),
            (#line, { _ = try await spy.waitForCall(timeout: .milliseconds(1)) }),
            (#line, { _ = try await spy.waitForCall(number: 1, timeout: .milliseconds(1)) }),
        ]
        for (line, wait) in waits {
            do {
                try await examiningFailures { try await wait() }
                Issue.record("the wait at line \(line) did not time out")
            } catch let error as BridgeError {
                #expect(error.failureSite?.line == line)
                #expect(error.failureSite?.fileID == "BridgeTests/BridgeInProcessTests.swift")
                #expect(error.description == "BridgeTests/BridgeInProcessTests.swift:\(line): " + error.failureMessage)
            }
        }
    }

    @Test func unknownNameListsAvailableNames() async throws {
        let connected = try await Self.connect { host in
            host.probe("state") { "idle" }
            host.handle("given", as: String.self) { $0 }
            _ = host.spy("database.save", of: [Int].self)
        }
        defer { connected.listener.close(); connected.host.close() }
        await #expect(throws: BridgeError.self) { try await connected.app.call("nope") }
        do {
            try await connected.app.call("nope")
        } catch BridgeError.unknownName(let name, let available) {
            #expect(name == "nope")
            #expect(available == ["given", "state"])
        }
        do {
            _ = try await connected.app.spy("database.sav", as: [Int].self).calls
            Issue.record("unknown spy read")
        } catch BridgeError.unknownName(let name, let available) {
            #expect(name == "database.sav")
            #expect(available == ["database.save"])
        }
    }

    @Test func undecodableValueNamesTheTypeAndShowsTheJSON() async throws {
        struct Expected: Decodable { var title: String }
        let connected = try await Self.connect { host in host.probe("state") { ["count": 3] } }
        defer { connected.listener.close(); connected.host.close() }
        do {
            _ = try await connected.app.probe("state", as: Expected.self)
            Issue.record("decoded")
        } catch let error as BridgeError {
            guard case .undecodable(let type, let json, _) = error else { Issue.record("\(error)"); return }
            #expect(type.hasSuffix("Expected"))
            #expect(json == #"{"count":3}"#)
            #expect(error.description.contains("title"))
        }
    }

    @Test func handlerErrorsAndBadParamsAreReported() async throws {
        struct Failure: Error {}
        let connected = try await Self.connect { host in
            host.handle("fail", as: Int.self) { (_: Int) -> Int in throw Failure() }
        }
        defer { connected.listener.close(); connected.host.close() }
        await #expect {
            try await connected.app.call("fail", 1)
        } throws: { error in
            guard case BridgeError.remoteError(_, let code, _) = error else { return false }
            return code == "handlerFailed"
        }
        await #expect {
            try await connected.app.call("fail", "not an int")
        } throws: { error in
            guard case BridgeError.remoteError(_, let code, let message) = error else { return false }
            return code == "badParams" && message.contains("not an int")
        }
    }

    @Test func asyncHandlersAndWaitForCallByNumber() async throws {
        let connected = try await Self.connect { host in
            let spy = host.spy("seen", of: String.self)
            host.handleAsync("record", as: String.self) { value in
                await Task.yield()
                spy.record(value)
                return value.count
            }
        }
        defer { connected.listener.close(); connected.host.close() }
        let spy = connected.app.spy("seen", as: String.self)
        // The host runs in this process, so its async handler needs a thread of the cooperative
        // pool that the whole parallel suite shares; under load (Scripts/stress.sh) the pool
        // was seen busy for more than the default 10 s. This test is about async handlers and
        // spy numbering, not about time: its calls wait as long as the test itself may.
        let patient = Duration.seconds(120)
        #expect(try await connected.app.call("record", "one", as: Int.self, timeout: patient) == 3)
        #expect(try await connected.app.call("record", "three", as: Int.self, timeout: patient) == 5)
        #expect(try await spy.waitForCall() == "one")
        #expect(try await spy.waitForCall() == "three")
        #expect(try await spy.waitForCall(number: 1) == "one")
        #expect(try await spy.count == 2)
    }

    @Test func hostCarriesOnWhenTheHarnessGoesAway() async throws {
        let connected = try await Self.connect()
        let spy = connected.host.spy("s", of: Int.self)
        connected.listener.close()
        // Writing into the closed socket must not raise SIGPIPE or block.
        for index in 0..<2000 {
            connected.host.publish("tick", index)
            spy.record(index)
        }
        #expect(spy.count == 2000)
        connected.host.close()
        #expect(!connected.host.isConnected)
    }

    @Test func callAfterCloseFails() async throws {
        let connected = try await Self.connect { host in host.probe("state") { 1 } }
        connected.host.close()
        connected.listener.close()
        await #expect(throws: BridgeError.self) { try await connected.app.probe("state", as: Int.self) }
    }
}

extension BridgeInProcessTests {
    /// No process watcher reports an exit here: the exit grace (a loop timer) ends the bridge.
    @Test func aDroppedConnectionEndsTheWaitsAfterTheExitGrace() async throws {
        let connected = try await Self.connect(exitGrace: .milliseconds(50))
        defer { connected.listener.close() }
        let app = connected.app
        let waiting = Task { try await app.nextEvent(named: "never", timeout: .seconds(60)) }
        connected.host.close()  // says goodbye and closes the socket
        await #expect {
            _ = try await waiting.value
        } throws: { error in
            guard case BridgeError.connectionLost(let reason, _, _) = error else { return false }
            return reason.contains("said goodbye")
        }
        await #expect(throws: BridgeError.self) { try await app.call("__names", timeout: .seconds(60)) }
    }

    @Test func cancellingAWaitEndsIt() async throws {
        let connected = try await Self.connect()
        defer { connected.listener.close(); connected.host.close() }
        let app = connected.app
        let waiting = Task { try await app.nextEvent(named: "never", timeout: .seconds(60)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
