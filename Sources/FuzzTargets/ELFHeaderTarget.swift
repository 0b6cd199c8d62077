#if DEBUG || FUZZING
import Glibc
import PluginBoundary

/// The ELF checks made before `dlopen`, `ELFHeaderCheck`, which the host
/// makes on a plugin file and a worker again on the descriptor it is passed.
///
/// Input: the file's bytes, written to an unlinked temporary file.
let elfHeaderTarget = FuzzTarget("elf-header", "the ELF checks before dlopen (ELFHeaderCheck); input: a file's bytes") { input throws(PropertyViolation) in
    let bytes = Array(input.remaining())
    let descriptor = try unlinkedFile(holding: bytes)
    defer { close(descriptor) }
    guard (try? ELFHeaderCheck(descriptor: descriptor, size: bytes.count).run()) != nil else { return }
    if let problem = ELFImage(bytes).problem {
        throw PropertyViolation(property: "an accepted file's loadable segments lie inside it", detail: "\(problem), in \(bytes.count) bytes")
    }
}

/// A descriptor of a new temporary file that holds `bytes`, already
/// unlinked, so nothing is left behind whatever happens next.
private func unlinkedFile(holding bytes: [UInt8]) throws(PropertyViolation) -> Int32 {
    var template = TemporaryFiles.template("elf")
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
    guard descriptor >= 0 else { throw PropertyViolation(property: "a temporary file can be made", detail: SystemError(operation: "create", errno: errno).reason) }
    template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
        close(descriptor)
        throw PropertyViolation(property: "the input can be written to a file", detail: SystemError(operation: "write", errno: errno).reason)
    }
    return descriptor
}

/// What `dlopen` needs of a file before it maps it, read independently of
/// the host's check: a 64-bit little-endian shared library for this
/// machine, whose program headers and every `PT_LOAD` and `PT_DYNAMIC`
/// segment end inside the file.
private struct ELFImage {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Why `dlopen` could fault on it, or nil.
    var problem: String? {
        guard bytes.count >= 64 else { return "the header is cut short" }
        guard bytes[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]), bytes[4] == 2, bytes[5] == 1 else { return "it is not 64-bit little-endian ELF" }
        guard value(16, 2) == 3 else { return "it is not a shared library" }
        #if arch(x86_64)
        guard value(18, 2) == 62 else { return "it is for another machine" }
        #endif
        let table = value(32, 8)
        let entrySize = value(54, 2)
        let count = value(56, 2)
        guard entrySize >= 56 else { return "its program headers are \(entrySize) bytes" }
        let (tableSize, _) = entrySize.multipliedReportingOverflow(by: count)
        let (tableEnd, overflow) = table.addingReportingOverflow(tableSize)
        guard !overflow, tableEnd <= UInt64(bytes.count) else { return "its program headers end at \(table) + \(tableSize)" }
        for index in 0..<count {
            let entry = Int(table + index * entrySize)
            let type = value(entry, 4)
            guard type == 1 || type == 2 else { continue }
            let (end, overflow) = value(entry + 8, 8).addingReportingOverflow(value(entry + 32, 8))
            guard !overflow, end <= UInt64(bytes.count) else { return "segment \(index) ends past the end" }
        }
        return nil
    }

    private func value(_ offset: Int, _ size: Int) -> UInt64 {
        (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
#endif
