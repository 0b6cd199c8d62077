#if canImport(Glibc)
import Glibc
#endif

/// A plugin file opened once, checked, and then loaded from the very same
/// open file description.
///
/// `dlopen` trusts its input: a truncated ELF file maps segments past the
/// end of the file and the first touch is a SIGBUS that kills the host. So
/// before anything is mapped, the headers are read and every loadable
/// segment is checked to lie inside the file. Loading goes through
/// `/proc/self/fd/N` so what was checked is what is loaded, even if the path
/// is replaced in between.
struct PluginFile {
    /// The open descriptor. Kept open for the life of the process: glibc
    /// recognises an already-loaded library by its path string, so a reused
    /// `/proc/self/fd/N` name would hand back the earlier plugin.
    let descriptor: Int32
    /// The file size when it was checked.
    let size: Int

    /// The path `dlopen` loads this file through.
    var loadPath: String { "/proc/self/fd/\(descriptor)" }

    /// Opens `path` read-only and checks that it is a complete shared library
    /// for this machine.
    /// - Throws: ``PluginLoadError`` saying what is wrong with the file.
    static func open(_ path: String) throws(PluginLoadError) -> PluginFile {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PluginLoadError(.notALibrary(reason: "cannot open it: \(String(cString: strerror(errno)))"))
        }
        do throws(PluginLoadError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw PluginLoadError(.notALibrary(reason: "cannot stat it: \(String(cString: strerror(errno)))"))
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw PluginLoadError(.notALibrary(reason: "it is not a regular file"))
            }
            let file = PluginFile(descriptor: descriptor, size: Int(status.st_size))
            try ELFHeaderCheck(file: file).run()
            return file
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Reads exactly `count` bytes at `offset`, or nil past the end.
    func read(_ count: Int, at offset: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return read == count ? bytes : nil
    }
}

/// The checks `dlopen` does not make before mapping a file.
private struct ELFHeaderCheck {
    let file: PluginFile

    func run() throws(PluginLoadError) {
        guard file.size > 0 else { throw failure("the file is empty") }
        guard let header = file.read(64, at: 0) else { throw failure("the file is too short for an ELF header (\(file.size) bytes)") }
        guard header[0...3] == [0x7F, 0x45, 0x4C, 0x46] else { throw failure("it is not an ELF file") }
        guard header[4] == 2, header[5] == 1 else { throw failure("it is not a 64-bit little-endian ELF file") }
        guard word16(header, 16) == 3 else { throw failure("it is an ELF file but not a shared library") }
        let machine = word16(header, 18)
        guard machine == Self.hostMachine else {
            throw failure("it is built for ELF machine \(machine), and this host is ELF machine \(Self.hostMachine)")
        }
        let programHeaders = Int(word64(header, 32))
        let entrySize = Int(word16(header, 54))
        let count = Int(word16(header, 56))
        guard entrySize >= 56, let table = file.read(entrySize * count, at: programHeaders) else {
            throw failure("it is truncated: its program headers end past the end of the file (\(file.size) bytes)")
        }
        for index in 0..<count {
            let entry = Array(table[(index * entrySize)..<(index * entrySize + 56)])
            let type = word32(entry, 0)
            let offset = word64(entry, 8)
            let fileSize = word64(entry, 32)
            // PT_LOAD and PT_DYNAMIC are what the loader maps and reads.
            guard type == 1 || type == 2 else { continue }
            let (end, overflow) = offset.addingReportingOverflow(fileSize)
            guard !overflow, end <= UInt64(file.size) else {
                throw failure("it is truncated: segment \(index) ends at byte \(end), but the file has \(file.size) bytes")
            }
        }
    }

    private func failure(_ reason: String) -> PluginLoadError {
        PluginLoadError(.notALibrary(reason: reason))
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
