/// Why no response arrived: a `HOST_HTTP_FAILURE_*` kind and a sentence
/// that names no flag.
struct LibraryError: Error {
    enum Kind: Int32 {
        case other = 1, timeout, connectionReset, certificateUntrusted, certificateExpired, certificateNotYetValid, certificateWrongName,
            trustRoots, proxy, unreachable
    }

    let kind: Kind
    let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
