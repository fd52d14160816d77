import AssayCore
import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command runs against: its standard streams, environment and clock. The process's own by
/// default; tests pass memory sinks and files.
public struct CommandContext: Sendable {
    /// The descriptor documents are read from for the input `-`.
    public var standardInput: Int32
    /// Reports (text or JSON Lines).
    public var standardOutput: ByteSink
    /// Errors, progress and the summary.
    public var standardError: ByteSink
    /// The environment variables commands read: ``variablesRead`` (the language of messages and
    /// whether to colour).
    public var environment: [String: String]

    /// The variables of ``environment`` that commands read.
    public static let variablesRead = ["LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR", "TERM"]
    /// Whether standard output is a terminal (colour).
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bar, coloured summary).
    public var errorIsTerminal: Bool
    /// Seconds since some fixed moment.
    public var clock: @Sendable () -> Double
    /// The number of worker threads `--jobs` defaults to: the processors this process may use,
    /// asked of the system when first needed (a run given `--jobs` never asks: 0.4M instructions).
    public var processorCount: Int {
        get { givenProcessorCount ?? ProcessInfo.processInfo.activeProcessorCount }
        set { givenProcessorCount = newValue }
    }

    private var givenProcessorCount: Int?

    /// The smallest input that gets a progress bar (inputs smaller finish too soon for one to help).
    public var progressMinimumBytes = 8 << 20

    /// A context with the given streams; without a `processorCount`, the system's is asked when
    /// needed.
    public init(
        standardInput: Int32, standardOutput: ByteSink, standardError: ByteSink, environment: [String: String],
        outputIsTerminal: Bool = false, errorIsTerminal: Bool = false,
        clock: @escaping @Sendable () -> Double = CommandContext.monotonicSeconds,
        processorCount: Int? = nil
    ) {
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.clock = clock
        givenProcessorCount = processorCount
    }

    /// The process's standard streams and the variables of its environment that commands read
    /// (``variablesRead``: asked for one by one, not the whole environment made a dictionary).
    public static func process() -> CommandContext {
        var environment: [String: String] = [:]
        for name in variablesRead {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return CommandContext(
            standardInput: 0, standardOutput: ByteSink(fileDescriptor: 1), standardError: ByteSink(fileDescriptor: 2),
            environment: environment, outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1)
    }

    /// A monotonic clock in seconds.
    @Sendable public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Writes `assay: message` to standard error.
    func fail(_ error: CLIError) {
        standardError.write("assay: \(TerminalText.printable(error.message))\n")
        standardError.flush()
    }

    /// The language of the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`); messages in a language
    /// Assay has no catalog for fall back to English.
    var environmentLanguage: Language { Language.preferred(in: environment) }
}
