import Dispatch
import NIOCore
import PasteboardDaemon
import PasteboardFuzzing
import PasteboardProtocol
import Synchronization

/// Requests past the decoder: validation and handling, as far as an in-memory store goes
/// without a socket (`RequestRehearsal`): pasteboard-fuzz's `requests` target.
///
/// The input is up to 16 message payloads, one per line, handled in order against one fresh
/// store (so a write can be read, listed, cleared or restored from history by the lines after
/// it). Each request is either answered or refused with a request's error code and a message;
/// it never traps; every answer the daemon would send fits in one frame of its maximum length.
public enum RequestFuzzing {
    /// The target's name on pasteboard-fuzz's command line and under Tests/Fixtures/fuzz.
    public static let name = "requests"

    /// The most requests taken from one input.
    static let requestLimit = 16

    /// The codes a request may be refused with; `internal` and the connection-level codes may not.
    static let refusalCodes: Set<ErrorCode> = [
        .invalidArgument, .unknownType, .tooLarge, .noSuchItem, .noSuchSession, .noSuchEntry, .conflict,
        .noConformingRepresentation, .permissionDenied, .sourceUnavailable, .flowControl, .limitReached,
    ]

    /// Runs `input` through validation and handling, checks the invariants, and returns a
    /// one-line summary (for the replayer).
    @discardableResult
    public static func run(_ input: UnsafeRawBufferPointer) -> String {
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(requestLimit)
        let messages: [Message] = lines.compactMap { line in
            try? MessageCodec.decode(ByteBuffer(bytes: line))
        }
        guard !messages.isEmpty else { return "no request decoded" }
        let rehearsal = RequestRehearsal()
        let outcomes = waitFor {
            var outcomes: [RequestRehearsal.Outcome] = []
            for message in messages { outcomes.append(await rehearsal.perform(message)) }
            return outcomes
        }
        let limit = rehearsal.configuration.maxFrameLength
        for (message, outcome) in zip(messages, outcomes) {
            switch outcome {
            case .refused(let error):
                if !refusalCodes.contains(error.code) {
                    invariantViolated(named: RequestFuzzing.name, "'\(message.op)' was refused with '\(error.code.rawValue)': \(error.message)")
                }
                if error.message.isEmpty {
                    invariantViolated(named: RequestFuzzing.name, "'\(message.op)' was refused with '\(error.code.rawValue)' and no message")
                }
            case .answered(let answer?):
                let length = MessageCodec.encode(answer).readableBytes + ProtocolLimits.headerLength
                if length > limit {
                    invariantViolated(named: RequestFuzzing.name, "the answer to '\(message.op)' takes \(length) bytes, more than the \(limit)-byte frame limit")
                }
            case .answered(nil), .notARequest:
                break
            }
        }
        return zip(messages, outcomes).map { message, outcome in
            switch outcome {
            case .answered(let answer): "\(message.op): \(answer?.op ?? "handled")"
            case .refused(let error): "\(message.op): \(error.code.rawValue)"
            case .notARequest: "\(message.op): not a request"
            }
        }.joined(separator: ", ")
    }

    /// The value of `body`, waited for on this thread (the fuzzer's callback is synchronous).
    private static func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
