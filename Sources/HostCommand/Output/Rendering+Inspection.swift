import PluginBoundary
import PluginHost

extension Rendering {
    /// What `host inspect` prints.
    ///
    /// The JSON shape is a contract, like the listings':
    /// `{"path","working","name","version"?,"descriptor"?:{"abiVersion","hostABIVersion","structSize",
    /// "hostMinimumStructSize","hostStructSize","description"?,"author"?,"license"?,"homepage"?},
    /// "fetchers":[{"symbol","displayName","declaredRank","rank","rankReason"?}],"checks":[{"check","path","passed","problem"?}],
    /// "lock":{"verdict","lockFile"?,"sha256"?,"problem"?},"mode":"in-process"|"isolated","modeReason",
    /// "vouchedBy":"bundled"|"trust-store"|"allowlist"|"nobody",
    /// "sandbox":"full"|"partial"|"none","refusedSystemCall"?,"problem"?,"warnings":[…],
    /// "declaredAPIBaseURL"?,"apiBaseURL"?,"apiBaseOrigin"?}`.
    /// - Parameters:
    ///   - inspection: From ``Host/inspect(_:isolation:policy:)``.
    ///   - format: Table or JSON.
    /// - Returns: The text, ending in a newline.
    static func inspection(_ inspection: PluginInspection, as format: OutputFormat) -> String {
        switch format {
        case .json:
            return json(inspection)
        case .table:
            return InspectionTable(inspection).rendered
        }
    }
}

/// The table form: one section per concern, each a few aligned lines.
private struct InspectionTable {
    let inspection: PluginInspection

    init(_ inspection: PluginInspection) {
        self.inspection = inspection
    }

    var rendered: String {
        let report = inspection.report
        var sections: [String] = []
        let verdict = inspection.isWorking ? "a working plugin" : "not a working plugin"
        sections.append(TerminalText.escaped("\(inspection.path): \(verdict)") + "\n")

        if let descriptor = inspection.descriptor {
            sections.append(
                "Descriptor\n"
                    + pairs([
                        ("name", report.name),
                        ("version", report.version ?? "-"),
                        ("ABI version", "\(descriptor.abiVersion) (this host: \(PluginABIVersion.current))"),
                        (
                            "struct_size",
                            "\(descriptor.descriptorSize) bytes (this host reads \(PluginMetadata.minimumDescriptorSize) to \(PluginMetadata.currentDescriptorSize))"
                        ),
                        ("description", descriptor.description ?? "-"),
                        ("author", descriptor.author ?? "-"),
                        ("license", descriptor.license ?? "-"),
                        ("homepage", descriptor.homepage ?? "-"),
                    ]))
        } else {
            sections.append("Descriptor\n  not read: loading stopped before it\n")
        }

        var fetchers = TextTable("SYMBOL", "NAME", "RANK")
        fetchers.rows = inspection.fetchers.map {
            [$0.symbol, $0.displayName, Rendering.rankCell($0.rank.value, declared: $0.declaredRank.value, reason: $0.rankOrigin.reason)]
        }
        sections.append("Fetchers\n" + (inspection.fetchers.isEmpty ? "  none registered\n" : indented(fetchers.rendered)))
        if let apiBase = apiBase(report) { sections.append(apiBase) }

        var checks = TextTable("CHECK", "VERDICT", "ON")
        checks.rows = inspection.checks.map { [$0.check, $0.passed ? "pass" : "FAIL", $0.path] }
        let lock = inspection.lock
        let lockOn =
            switch lock.verdict {
            case .unlocked: "no lock file applies"
            default: lock.lockFile ?? "-"
            }
        checks.rows.append(["lock file (\(lock.verdict.rawValue))", lock.passed ? "pass" : "FAIL", lockOn])
        sections.append("Trust checks\n" + indented(checks.rendered))

        let mode =
            (inspection.loadsIsolated ? "isolated worker, sandbox \(inspection.sandboxSummary ?? "none")" : "in-process (not sandboxed)")
            + ": \(inspection.placement.reason)"
        sections.append(
            pairs([
                ("SHA-256", lock.sha256 ?? "-"),
                ("Vouched by", inspection.placement.voucher.name),
                ("Would load", mode),
                ("Inspected in", inspection.sandboxSummary.map { "an isolated worker, sandbox \($0)" } ?? "nothing: refused before any of its code ran"),
                ("Memory", inspection.memoryBudget),
            ] + refusedCall(report) + network(report) + [("Problem", report.error ?? "none")] + report.warnings.map { ("Warning", $0) }))
        return sections.joined(separator: "\n")
    }

    /// What the host believed of the API base: the one the descriptor
    /// declares, and the one the plugin would be told, with who chose it.
    /// Its own section, apart from the grant lines of `host allow`.
    private func apiBase(_ report: PluginReport) -> String? {
        guard let descriptor = inspection.descriptor else { return nil }
        let told = report.apiBase.map { "\($0.url.isEmpty ? "none" : $0.url) (\($0.origin.rawValue))" } ?? "-"
        return "API base\n" + pairs([("declared", descriptor.apiBaseURL ?? "none"), ("told", told)])
    }

    /// What the plugin may fetch, and its network grant (`host allow`): one line.
    private func network(_ report: PluginReport) -> [(String, String)] {
        guard report.status == .loaded else { return [] }
        var line = report.allowedURLs.isEmpty ? "may fetch nothing" : "may fetch under \(report.allowedURLs.joined(separator: ", "))"
        switch report.networkGrant {
        case .granted(let url)?: line += "; \(url) granted by `host allow`"
        case .changed(let url)?: line += "; not \(url): the file changed since you allowed it; check it and run `host allow` again"
        case nil:
            if let withheld = report.withheldAPIBaseURL { line += "; not \(withheld), the base it declares: nobody vouched for it; grant it with `host allow`" }
        }
        return [("Network", line)]
    }

    /// The first system call the plugin's sandbox refused while it loaded, if one was.
    private func refusedCall(_ report: PluginReport) -> [(String, String)] {
        guard let refused = report.refusedSystemCall else { return [] }
        return [("Refused call", "\(refused), the first system call its sandbox refused (it failed with EPERM)")]
    }

    /// `key  value` lines, the values aligned and escaped for the terminal.
    private func pairs(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { key, value in
            "  " + key + String(repeating: " ", count: width - key.count) + "  " + TerminalText.escaped(value) + "\n"
        }.joined()
    }

    private func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }
}
