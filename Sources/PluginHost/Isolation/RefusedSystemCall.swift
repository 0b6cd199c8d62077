import CWorkerSandbox

/// A system call a worker's filter refused: the first one, which `-v` and
/// `host inspect` name so that a plugin's author knows what it lacked.
package struct RefusedSystemCall: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Its number on this machine's architecture.
    package let number: UInt32
    /// Its name, e.g. "personality"; nil for a number this build does not know.
    package let name: String?

    /// The call numbered `number` here; nil for a number no architecture
    /// uses, which only a plugin forging the worker's frames would send.
    init?(number: UInt32) {
        guard number < 1024 else { return nil }
        self.number = number
        name = pb_syscall_name(number).map { String(cString: $0) }
    }

    /// "personality (number 135)".
    package var description: String {
        name.map { "\($0) (number \(number))" } ?? "number \(number)"
    }
}
