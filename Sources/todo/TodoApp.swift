import Dispatch
import Foundation
import TodoCore

/// The running full-screen app: owns the state, performs effects, draws frames.
///
/// Everything happens on one serial queue: keys, signals, network results and saves arrive
/// there as messages, go through the pure state machine, and the effect it returns is run.
// @unchecked: every mutable property is read and written only on `queue` (the app's one
// serial queue: keys, signals, network results and saves all arrive there), and the `on…`
// hooks are set before `run()` starts the queue's sources.
final class TodoApp: @unchecked Sendable {
    private let queue = DispatchQueue(label: "todo.app")
    private let device = TerminalDevice()
    private let api: TodoAPI
    private let store: TodoStore
    private let color: Bool
    private var state = TodoListState()
    private var decoder = KeyDecoder()
    private var notice: String?
    private var loadedAt: String?
    private var sources: [any DispatchSourceProtocol] = []
    private let clock: @Sendable () -> Date

    /// Called on the app's queue after every message, with the new state (for the harness bridge).
    var onTransition: (@Sendable (TodoListState) -> Void)?
    /// Called once the terminal is in raw mode and the first screen is drawn: from then on a
    /// key typed is read, not flushed by the switch to raw mode (the harness's `ready`).
    var onReady: (() -> Void)?
    /// Called instead of the store to save (lets the bridge spy on saves); defaults to the store.
    var save: (@Sendable ([Todo]) throws -> Void)?

    init(
        api: TodoAPI, store: TodoStore, color: Bool, initialState: TodoListState = TodoListState(),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.api = api
        self.store = store
        self.color = color
        self.state = initialState
        self.clock = clock
    }

    /// Takes over the terminal and runs until the user quits; never returns.
    func run() -> Never {
        do {
            try device.enterFullScreen()
        } catch {
            FileHandle.standardError.write(Data("todo: cannot use the terminal: \(error)\n".utf8))
            exit(1)
        }
        queue.sync {
            installSources()
            resize()
            draw()
            onReady?()
        }
        SignalPipe.parkMainThread()
    }

    /// Sends a message from any thread.
    func send(_ message: TodoListMessage) {
        queue.async { self.handle(message) }
    }

    /// Replaces the state (the harness's `given`), from any thread, and redraws.
    func setState(_ newState: TodoListState) {
        queue.async {
            var newState = newState
            newState.pageSize = TodoScreen.pageSize(rows: self.device.size().rows)
            self.state = newState
            self.onTransition?(self.state)
            self.draw()
        }
    }

    /// The current state, read on the app's queue.
    func currentState() -> TodoListState {
        queue.sync { state }
    }

    // MARK: - Messages and effects

    private func handle(_ message: TodoListMessage) {
        let before = state
        let effect = state.handle(message)
        if state != before { onTransition?(state) }
        if let effect { perform(effect) }
        draw()
    }

    private func perform(_ effect: TodoListEffect) {
        switch effect {
        case .loadTodos:
            notice = nil
            let api = self.api
            Task {
                let result: Result<[Todo], TodoLoadFailure>
                do {
                    result = .success(try await api.fetchTodos())
                } catch {
                    result = .failure(TodoLoadFailure(reason: String(describing: error)))
                }
                self.send(.todosReceived(result))
            }
        case .saveTodos(let todos):
            loadedAt = Self.timeFormatter.string(from: clock())
            do {
                if let save { try save(todos) } else { try store.save(todos) }
                notice = nil
            } catch {
                notice = "Could not save: \(error)"
            }
        case .quit:
            finish(status: 0)
        }
    }

    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter
    }()

    // MARK: - Input, signals, drawing

    private func installSources() {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        input.setEventHandler { [unowned self] in self.readInput() }
        input.resume()
        sources.append(input)

        let signals = SignalPipe.install([SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT])
        let signalSource = DispatchSource.makeReadSource(fileDescriptor: signals, queue: queue)
        signalSource.setEventHandler { [unowned self] in
            for signalNumber in SignalPipe.drain(signals) {
                if signalNumber == SIGWINCH {
                    self.resize()
                    self.draw()
                } else {
                    self.finish(signal: signalNumber)
                }
            }
        }
        signalSource.resume()
        sources.append(signalSource)
    }

    private func readInput() {
        let bytes: [UInt8]
        do {
            bytes = try device.read()
        } catch {
            finish(status: 1, message: "todo: reading the terminal failed: \(error)")
        }
        if bytes.isEmpty { finish(status: 1, message: "todo: the terminal closed") }
        for key in decoder.decode(bytes) {
            if key == .interrupt { finish(status: 130) }
            if let message = message(for: key) { handle(message) }
        }
    }

    private func message(for key: InputKey) -> TodoListMessage? {
        switch (key, state.status) {
        case (.character("q"), _), (.character("Q"), _): .quit
        case (.enter, .idle), (.space, .idle): .start
        case (.enter, .error), (.space, .error): .tryAgain
        case (.up, .loaded), (.character("k"), .loaded): .moveSelection(by: -1)
        case (.down, .loaded), (.character("j"), .loaded): .moveSelection(by: 1)
        case (.pageUp, .loaded): .pageUp
        case (.pageDown, .loaded): .pageDown
        case (.home, .loaded), (.character("g"), .loaded): .home
        case (.end, .loaded), (.character("G"), .loaded): .end
        default: nil
        }
    }

    private func resize() {
        let rows = device.size().rows
        _ = state.handle(.resized(visibleRows: TodoScreen.pageSize(rows: rows)))
    }

    private func draw() {
        let size = device.size()
        let screen = TodoScreen(cols: size.cols, rows: size.rows, color: color, notice: notice, loadedAt: loadedAt)
        device.write(screen.render(state))
    }

    /// Restores the terminal and exits with `status`.
    private func finish(status: Int32, message: String? = nil) -> Never {
        device.restore()
        if let message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        // _exit, not exit: a request may be in flight on FoundationNetworking's threads, and
        // running the process's exit handlers under them can crash. Everything we print is
        // written unbuffered, so nothing is lost.
        _exit(status)
    }

    /// Restores the terminal and dies of `signalNumber`, so the parent sees the real cause.
    private func finish(signal signalNumber: Int32) -> Never {
        device.restore()
        SignalPipe.dieOf(signalNumber)
    }
}
