import Crypto
import PluginBoundary

import Glibc

/// SHA-256 of an open file, read through the descriptor with `pread`.
///
/// Hashing the descriptor that is then loaded (through `/proc/self/fd/N`)
/// is what ties the check to the load: replacing the path afterwards
/// changes nothing, because the descriptor still names the checked inode.
enum FileDigest {
    /// The lower-case hex SHA-256 of the first `size` bytes of `descriptor`.
    /// - Complexity: O(size), in 64 KiB reads.
    /// - Throws: `SystemError` when a read fails or the file is shorter than `size`.
    static func sha256(descriptor: Int32, size: Int) throws(SystemError) -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset < size {
            let wanted = min(buffer.count, size - offset)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw SystemError(operation: "read", errno: count == 0 ? EIO : errno) }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
        return hex(hasher.finalize())
    }

    /// The hex form `sha256sum` prints.
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
