#if DEBUG || FUZZING
import PluginABI
@testable import PluginBoundary

/// A plugin's `pb_plugin_descriptor` as the loader reads it
/// (`PluginDescriptor.read`), the host's and a worker's alike, from a
/// descriptor of any `struct_size`, allocated at exactly that size: a read
/// past it is an AddressSanitizer report.
///
/// Input: a size byte (0 to 199 bytes, else 4 more bytes give any size), two
/// flag bytes (bit 0: wrong magic; bit 1: wrong ABI; bits 2 to 8: NULL name,
/// version, `register_plugin`, description, author, licence, homepage; bit 9:
/// NULL `api_base_url`), then the seven texts, a length byte each (a NUL
/// cuts them).
let pluginDescriptorTarget = FuzzTarget("plugin-descriptor", "PluginDescriptor.read of a descriptor of any struct_size; input: size, flags, texts") { input throws(PropertyViolation) in
    let sizeByte = input.byte()
    let size: UInt32 = sizeByte < 200 ? UInt32(sizeByte) : input.integer()
    let flags = UInt16(input.byte()) | UInt16(input.byte()) << 8
    let texts = (0..<7).map { _ in Array(input.counted()) + [0] }
    let allocated = max(12, min(Int(size), MemoryLayout<pb_plugin_descriptor>.size))
    let descriptor = UnsafeMutableRawPointer.allocate(byteCount: allocated, alignment: MemoryLayout<pb_plugin_descriptor>.alignment)
    defer { descriptor.deallocate() }
    descriptor.initializeMemory(as: UInt8.self, repeating: 0xAB, count: allocated)
    descriptor.storeBytes(of: flags & 1 == 0 ? PB_PLUGIN_MAGIC : 0x5042_4158, toByteOffset: 0, as: UInt32.self)
    descriptor.storeBytes(of: flags & 2 == 0 ? PB_PLUGIN_ABI_VERSION : 2, toByteOffset: 4, as: UInt32.self)
    descriptor.storeBytes(of: size, toByteOffset: 8, as: UInt32.self)

    let textFields: [KeyPath<pb_plugin_descriptor, UnsafePointer<CChar>?>] = [\.name, \.version, \.description, \.author, \.license, \.homepage, \.api_base_url]
    let nullBits: [UInt16] = [4, 8, 32, 64, 128, 256, 512]
    // Which fields the descriptor holds: those its allocation covers.
    func covers<Value>(_ field: KeyPath<pb_plugin_descriptor, Value>) -> Int? {
        MemoryLayout<pb_plugin_descriptor>.offset(of: field).flatMap { $0 + 8 <= allocated && $0 + 8 <= Int(size) ? $0 : nil }
    }
    let result = withCStrings(texts) { pointers in
        for (index, field) in textFields.enumerated() {
            guard let offset = covers(field) else { continue }
            descriptor.storeBytes(of: flags & nullBits[index] == 0 ? pointers[index] : nil, toByteOffset: offset, as: UnsafePointer<CChar>?.self)
        }
        if let offset = covers(\.register_plugin) {
            descriptor.storeBytes(of: flags & 16 == 0 ? registerNothing : nil, toByteOffset: offset, as: pb_register_plugin_fn?.self)
        }
        return Result { () throws(PluginImageError) in try PluginDescriptor.read(UnsafeRawPointer(descriptor)) }
    }

    // What the header's rules say of this descriptor.
    func given(_ index: Int) -> GivenText {
        guard covers(textFields[index]) != nil, flags & nullBits[index] == 0 else { return .absent }
        return String(validating: texts[index].prefix { $0 != 0 }, as: UTF8.self).map(GivenText.text) ?? .notUTF8
    }
    func text(_ index: Int) -> String? {
        if case .text(let text) = given(index) { text } else { nil }
    }
    let limits = [PluginOutputRules.Limit.name, PluginOutputRules.Limit.version, PluginOutputRules.Limit.description, PluginOutputRules.Limit.credit, PluginOutputRules.Limit.credit, PluginOutputRules.Limit.credit, PluginOutputRules.Limit.apiBaseURL]
    // The header's name rule (issue 34): ASCII letters, digits, '.', '_' and '-' only.
    func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
    }
    let valid = (0..<7).allSatisfy { index in
        switch given(index) {
        case .absent: index >= 2
        case .notUTF8: false
        case .text(let text): text.utf8.count <= limits[index] && (index >= 2 || !text.isEmpty) && (index != 0 || text.utf8.allSatisfy(isNameByte))
        }
    }
    let wellFormed = flags & 3 == 0 && Int(size) >= PluginMetadata.minimumDescriptorSize && flags & 16 == 0 && valid
    switch result {
    case .success(let read):
        try expect(wellFormed, "only a descriptor that keeps every rule is read", "size \(size), flags \(flags): \(read.name) \(read.version)")
        try expect(read.name == text(0) && read.version == text(1) && read.metadata.descriptorSize == size, "a descriptor's name, version and size are read as they are", "\(read.name) \(read.version) \(read.metadata)")
        let metadata = [read.metadata.description, read.metadata.author, read.metadata.license, read.metadata.homepage, read.metadata.apiBaseURL]
        try expect(metadata == (2..<7).map(text), "each optional text is read when struct_size covers it and it is set, else nil", "size \(size): \(read.metadata)")
    case .failure(let error):
        try expect(!wellFormed, "a descriptor that keeps every rule is read", "size \(size), flags \(flags): \(error)")
    }
}

/// A text the descriptor holds.
private enum GivenText {
    /// Not set, or past `struct_size`.
    case absent
    /// Set, but not UTF-8.
    case notUTF8
    /// Set to this.
    case text(String)
}

/// A `register_plugin` that is never called: reading a descriptor does not
/// register anything.
private let registerNothing: pb_register_plugin_fn = { _ in PB_OK }

/// Calls `body` with a pointer to each NUL-terminated text.
private func withCStrings<T>(_ texts: [[UInt8]], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    func nest(_ index: Int, _ pointers: [UnsafePointer<CChar>?]) -> T {
        guard index < texts.count else { return body(pointers) }
        return texts[index].withUnsafeBufferPointer { buffer in
            nest(index + 1, pointers + [UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self)])
        }
    }
    return nest(0, [])
}
#endif
