extension PluginInspection {
    /// The sandbox of the worker that ran the plugin's code: "full", "partial"
    /// or "none". Workers are not sandboxed yet.
    var sandboxLevel: String { "none" }

    /// "full", or "partial (no …)"; nil when no worker ran any of the
    /// plugin's code, because the checks refused the file first.
    var sandboxSummary: String? { checks.allSatisfy(\.passed) && lock.passed ? "none" : nil }
}
