#if canImport(Glibc)
import Glibc
#endif

/// The request-rate baseline: `redis-benchmark` SET/GET of 16-byte values from 50 clients
/// against a redis-server on a Unix socket, started for the run with the persistence given.
enum RedisBaseline {
    /// Requests per second of alternating SET and GET (the harmonic mean of the two rates),
    /// or why there is no figure.
    static func rate(clients: Int, requests: Int, directory: String, persistence: [String]) -> Result<Double, BenchError> {
        guard let server = Spawned.find("redis-server") else { return .failure(BenchError("redis-server not installed")) }
        guard let benchmark = Spawned.find("redis-benchmark") else { return .failure(BenchError("redis-benchmark not installed")) }
        let socket = directory + "/redis.sock"
        let output = directory + "/redis-benchmark.out"
        unlink(socket)
        unlink(output)
        guard let redis = try? Spawned.start([server, "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--dir", directory] + persistence) else {
            return .failure(BenchError("redis-server did not start"))
        }
        defer { redis.stop() }
        for _ in 0..<500 where access(socket, F_OK) != 0 { usleep(10_000) }
        guard let run = try? Spawned.start(
            [benchmark, "-s", socket, "-c", "\(clients)", "-n", "\(requests)", "-t", "set,get", "-d", "16", "-q"], output: output),
              run.wait() == 0
        else { return .failure(BenchError("redis-benchmark failed")) }
        let rates = parse(output)
        guard let set = rates["SET"], let get = rates["GET"], set > 0, get > 0 else {
            return .failure(BenchError("cannot read redis-benchmark's output"))
        }
        return .success(2 / (1 / set + 1 / get))
    }

    /// "SET: 123456.79 requests per second, p50=…" lines, by command.
    private static func parse(_ path: String) -> [String: Double] {
        guard let file = fopen(path, "r") else { return [:] }
        defer { fclose(file) }
        var rates: [String: Double] = [:]
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            // -q output redraws progress with carriage returns; the final figure is the last segment.
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for segment in text.split(separator: "\r") {
                let parts = segment.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, segment.contains("requests per second") else { continue }
                let number = parts[1].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
                if let value = Double(number) { rates[String(parts[0])] = value }
            }
        }
        return rates
    }
}
