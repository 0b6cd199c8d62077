import Glibc

/// The checks `dlopen` does not make before mapping a file.
///
/// `dlopen` trusts its input: a truncated ELF file maps segments past the
/// end of the file, and the first touch is a SIGBUS. So before anything is
/// mapped, the headers are read through the very descriptor that is then
/// loaded, and every loadable segment is checked to lie inside the file.
/// The host makes these checks before it hands a file to a worker, and the
/// worker makes them again on what it was handed.
package struct ELFHeaderCheck {
    /// The open file.
    package let descriptor: Int32
    /// Its size when it was checked, in bytes.
    package let size: Int

    /// A check of the file open on `descriptor`, `size` bytes long.
    package init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    /// Checks the ELF header and the program headers.
    /// - Throws: ``PluginImageError/notALibrary(reason:)`` saying what is wrong.
    package func run() throws(PluginImageError) {
        guard size > 0 else { throw failure("the file is empty") }
        guard let header = read(64, at: 0) else { throw failure("the file is too short for an ELF header (\(size) bytes)") }
        guard header[0...3] == [0x7F, 0x45, 0x4C, 0x46] else { throw failure("it is not an ELF file") }
        guard header[4] == 2, header[5] == 1 else { throw failure("it is not a 64-bit little-endian ELF file") }
        guard word16(header, 16) == 3 else { throw failure("it is an ELF file but not a shared library") }
        let machine = word16(header, 18)
        guard machine == Self.hostMachine else {
            throw failure("it is built for ELF machine \(machine), and this host is ELF machine \(Self.hostMachine)")
        }
        let entrySize = Int(word16(header, 54))
        let count = Int(word16(header, 56))
        // `Int(exactly:)`: an offset past Int.max is past any file, not a trap.
        guard entrySize >= 56, let programHeaders = Int(exactly: word64(header, 32)), let table = read(entrySize * count, at: programHeaders) else {
            throw failure("it is truncated: its program headers end past the end of the file (\(size) bytes)")
        }
        for index in 0..<count {
            let entry = Array(table[(index * entrySize)..<(index * entrySize + 56)])
            let type = word32(entry, 0)
            let offset = word64(entry, 8)
            let fileSize = word64(entry, 32)
            // PT_LOAD and PT_DYNAMIC are what the loader maps and reads.
            guard type == 1 || type == 2 else { continue }
            let (end, overflow) = offset.addingReportingOverflow(fileSize)
            guard !overflow, end <= UInt64(size) else {
                throw failure("it is truncated: segment \(index) ends at byte \(end), but the file has \(size) bytes")
            }
        }
    }

    /// Reads exactly `count` bytes at `offset`, or nil past the end.
    private func read(_ count: Int, at offset: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return read == count ? bytes : nil
    }

    private func failure(_ reason: String) -> PluginImageError {
        .notALibrary(reason: reason)
    }

    private func word16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private func word32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    private func word64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    #if arch(x86_64)
    static let hostMachine: UInt16 = 62
    #elseif arch(arm64)
    static let hostMachine: UInt16 = 183
    #else
    static let hostMachine: UInt16 = 0
    #endif
}
