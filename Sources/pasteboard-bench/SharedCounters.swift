import Synchronization

/// A flag set once, read by many tasks.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// A count many tasks add to.
final class SharedCount: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}

/// The first failure many tasks may report.
final class FirstFailure: Sendable {
    private let message = Mutex<String?>(nil)
    func record(_ text: String) { message.withLock { $0 = $0 ?? text } }
    var recorded: String? { message.withLock { $0 } }
}
