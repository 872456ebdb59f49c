#if canImport(Glibc)
import Glibc
#endif
public import NIOCore
import PasteboardSystem

/// Unbuffered, binary-safe output to stdout/stderr (write(2) loops, no stdio buffering).
public enum Output {
    /// Writes `bytes` to `fd` completely. Throws on failure (EPIPE included).
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws(CLIError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw .quietFailure }
                throw .failure("cannot write output: \(SystemError.current)")
            }
            offset += written
        }
    }

    /// Writes a buffer's readable bytes to `fd`.
    public static func write(_ buffer: ByteBuffer, to fd: Int32) throws(CLIError) {
        let result: Result<Void, CLIError> = buffer.withUnsafeReadableBytes { bytes in
            do throws(CLIError) { try write(bytes, to: fd); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Prints a line to stdout.
    public static func printOut(_ line: String) {
        _ = try? write(ByteBuffer(string: line.hasSuffix("\n") ? line : line + "\n"), to: 1)
    }

    /// Prints a line to stdout, throwing when stdout is gone (so `watch` ends with its reader).
    public static func printLine(_ line: String) throws(CLIError) {
        try write(ByteBuffer(string: line + "\n"), to: 1)
    }

    /// Writes text to stderr as is (no newline added).
    public static func writeError(_ text: String) {
        _ = try? write(ByteBuffer(string: text), to: 2)
    }

    /// Prints a line to stderr.
    public static func printError(_ line: String) {
        _ = try? write(ByteBuffer(string: line.hasSuffix("\n") ? line : line + "\n"), to: 2)
    }
}
