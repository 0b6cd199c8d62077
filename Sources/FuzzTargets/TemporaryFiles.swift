import Glibc

/// Where targets that need a real file write one.
enum TemporaryFiles {
    /// `/dev/shm` when it can be written: on ext4, truncating and rewriting a
    /// file waits for the disk at close (`auto_da_alloc`), which made a file
    /// target thirty times slower. Otherwise `$TMPDIR`, or `/tmp`.
    static let directory: String = {
        if access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
        return getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }()

    /// A `mkstemp`/`mkdtemp` template in ``directory``.
    static func template(_ name: String) -> [CChar] {
        Array("\(directory)/patchbay-fuzz-\(name)-XXXXXX".utf8CString)
    }
}
