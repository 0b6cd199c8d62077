import Foundation
import Testing

/// Issue 41: an `http://` fetch builds no TLS configuration and reads no CA
/// file, while `https://` reads the same ones as before, and the system's own
/// store named again by `SSL_CERT_FILE` and `SSL_CERT_DIR` is read only once.
@Suite("Trust roots are read only for https", .timeLimit(.minutes(10)))
struct PlainHTTPTrustRootsTests {
    /// A CA file that no PEM reader accepts, and one that does not exist.
    static func brokenCAFiles() throws -> [String] {
        let directory = try TemporaryDirectory.make()
        let garbage = directory.appending(path: "garbage.pem").path
        try "not a certificate\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        return [garbage, directory.appending(path: "missing.pem").path]
    }

    @Test("An http fetch succeeds whatever SSL_CERT_FILE, SSL_CERT_DIR and --ca-file name: it reads none of them")
    func httpReadsNoCAFile() async throws {
        let server = try await LoopbackPriceServer(routes: [NetworkEndToEndTests.path: .respond(status: 200, body: NetworkEndToEndTests.spot)])
        defer { Task { await server.stop() } }
        let files = try Self.brokenCAFiles()
        // `--ca-file` must name a readable file (checked before the fetch), so it gets the garbage one only.
        for (broken, arguments) in [(files[0], ["--ca-file", files[0], "--no-system-ca"]), (files[1], [])] {
            let output = try await NetworkEndToEndTests.fetch(server, arguments, environment: ["SSL_CERT_FILE": broken, "SSL_CERT_DIR": broken])
            #expect(output.status == 0, "\(broken): \(output.stderr)")
            #expect(output.stdout.contains(HostFixtures.ethRow))
            #expect(output.stderr == "")
        }
    }

    @Test("An https fetch with the same SSL_CERT_FILE fails, naming the file")
    func httpsNamesTheBrokenCAFile() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await NetworkEndToEndTests.httpsServer(authority)
        defer { Task { await server.stop() } }
        let files = try Self.brokenCAFiles()
        let (garbage, missing) = (files[0], files[1])
        let unparsable = try await NetworkEndToEndTests.fetch(server, ["--ca-file", try authority.writePEM()], environment: ["SSL_CERT_FILE": garbage])
        #expect(unparsable.status == 1)
        #expect(NetworkEndToEndTests.errorLine(unparsable).contains("cannot read the CA certificates in \(garbage): it is not a PEM file of certificates"))
        let absent = try await NetworkEndToEndTests.fetch(server, ["--ca-file", try authority.writePEM()], environment: ["SSL_CERT_FILE": missing])
        #expect(absent.status == 1)
        #expect(NetworkEndToEndTests.errorLine(absent).contains("cannot read the CA certificates in \(missing) (no such file or directory)"))
    }

    @Test("SSL_CERT_FILE and SSL_CERT_DIR naming the system's store keep --ca-file's CA trusted, with or without the system's roots")
    func systemStoreNamedAgain() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await NetworkEndToEndTests.httpsServer(authority)
        defer { Task { await server.stop() } }
        let pem = try authority.writePEM()
        let system = ["SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt", "SSL_CERT_DIR": "/etc/ssl/certs"].filter {
            FileManager.default.fileExists(atPath: $0.value)
        }
        for extra in [[], ["--no-system-ca"]] {
            let output = try await NetworkEndToEndTests.fetch(server, ["--ca-file", pem] + extra, environment: system)
            #expect(output.status == 0, "\(extra): \(output.stderr)")
            #expect(output.stdout.contains(HostFixtures.ethRow))
        }
    }
}
