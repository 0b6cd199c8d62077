/// Which names the plugins of one run may go by: the one place that says a
/// plugin nobody vouched for may not declare a name a vouched plugin holds.
///
/// A name is only a label a plugin writes into its descriptor, yet users
/// read it, and before names stopped selecting strangers they acted on it.
/// So a stranger that declares the name of a plugin someone vouched for in
/// this run (bundled, in the trust store, or on the allowlist) is refused
/// outright, naming both files, in every way the host loads: from the
/// scan cache, on demand, with `--no-cache`, isolated or in-process.
/// Vouched plugins may share a name (the user vouched for each file), and
/// so may strangers, which are always shown with their files.
///
/// ```swift
/// let thefts = NameClaims.thefts([
///     .init(path: "/opt/host/libBitstampPlugin.so", name: "BitstampPlugin", voucher: .bundled),
///     .init(path: "./plugins/libthief.so", name: "BitstampPlugin", voucher: .nobody),
/// ])
/// thefts["./plugins/libthief.so"]   // nameTaken by /opt/host/libBitstampPlugin.so (bundled)
/// ```
enum NameClaims {
    /// One plugin's claim to a name.
    struct Claim: Sendable, Equatable {
        /// The file, as found.
        let path: String
        /// The name its descriptor declares.
        let name: String
        /// Who vouched for the file.
        let voucher: Placement.Voucher
    }

    /// The claims refused, by path: each stranger's whose name a vouched
    /// plugin of `claims` holds, wherever either comes in search order.
    /// - Complexity: O(*n*) for *n* claims.
    static func thefts(_ claims: [Claim]) -> [String: PluginLoadError] {
        var holders: [String: Claim] = [:]
        for claim in claims where claim.voucher != .nobody && holders[claim.name] == nil {
            holders[claim.name] = claim
        }
        guard !holders.isEmpty else { return [:] }
        var thefts: [String: PluginLoadError] = [:]
        for claim in claims where claim.voucher == .nobody {
            guard let holder = holders[claim.name] else { continue }
            thefts[claim.path] = PluginLoadError(.nameTaken(holder: holder.path, voucher: holder.voucher)).describing(name: claim.name, version: nil, metadata: nil)
        }
        return thefts
    }
}

extension PluginLoader.Outcome {
    /// Refuses every plugin of these reports that takes a vouched plugin's
    /// name (``NameClaims``): its report becomes a failure, logged in one
    /// line as any refusal is, and its fetchers are dropped.
    /// - Parameters:
    ///   - voucher: Who vouched for the file at a path.
    ///   - services: Where the lines go, and how settings are named.
    /// - Returns: The paths refused.
    @discardableResult
    mutating func refuseNameThefts(voucher: (String) -> Placement.Voucher, services: HostServices) -> Set<String> {
        let claims = reports.filter { $0.status == .loaded }.map { NameClaims.Claim(path: $0.path, name: $0.name, voucher: voucher($0.path)) }
        let thefts = NameClaims.thefts(claims)
        guard !thefts.isEmpty else { return [] }
        for index in reports.indices {
            guard var failure = thefts[reports[index].path] else { continue }
            failure.version = reports[index].version
            failure.metadata = reports[index].metadata
            let report = reports[index]
            services.logger.warning("skipping \(report.path): \(failure.message(naming: services.names))")
            var refused = failure.report(for: report.path, names: services.names)
            refused.placement = report.placement
            refused.cached = report.cached
            refused.sandbox = report.sandbox
            refused.allowedURLs = report.allowedURLs
            reports[index] = refused
        }
        fetchers.removeAll { thefts[$0.plugin.path] != nil }
        return Set(thefts.keys)
    }
}
