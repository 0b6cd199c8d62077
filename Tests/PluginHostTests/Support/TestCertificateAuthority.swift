import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made at run time, and the server certificates it
/// issues, for HTTPS tests on loopback. Nothing is checked in, so nothing
/// expires in the repository.
struct TestCertificateAuthority {
    let key: P256.Signing.PrivateKey
    let certificate: Certificate
    let name: DistinguishedName

    /// A new self-signed CA, valid from an hour ago for a day.
    init(commonName: String = "Patchbay Test CA") throws {
        key = P256.Signing.PrivateKey()
        name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key))
    }

    /// Writes the CA certificate as PEM into a fresh directory.
    /// - Returns: The file's path, for `SSL_CERT_FILE` or `--ca-file`.
    func writePEM() throws -> String {
        let path = try TemporaryDirectory.make().appending(path: "ca.pem").path
        try certificate.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Issues a server certificate.
    /// - Parameters:
    ///   - dnsNames: The host names it is valid for.
    ///   - ipAddresses: The IPv4 addresses it is valid for, e.g. `[127, 0, 0, 1]`.
    ///   - validFrom: Its start, by default an hour ago.
    ///   - validUntil: Its end, by default a day ahead.
    /// - Returns: A server TLS configuration that presents it.
    func serverConfiguration(
        dnsNames: [String] = [], ipAddresses: [[UInt8]] = [], validFrom: Date = Date() - 3600, validUntil: Date = Date() + 86400
    ) throws -> TLSConfiguration {
        let serverKey = P256.Signing.PrivateKey()
        let names = dnsNames.map(GeneralName.dnsName) + ipAddresses.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...])) }
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: validFrom, notValidAfter: validUntil, issuer: name,
            subject: try DistinguishedName { CommonName(dnsNames.first ?? "loopback") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(leaf)
        let chain = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        let privateKey = try NIOSSLPrivateKey(bytes: Array(serverKey.derRepresentation), format: .der)
        return TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(chain)], privateKey: .privateKey(privateKey))
    }
}
