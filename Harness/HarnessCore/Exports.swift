// `import Harness` is all a test needs: the screen model and the bridge's wire types come along.
@_exported import HarnessWire
@_exported import TerminalEmulator
