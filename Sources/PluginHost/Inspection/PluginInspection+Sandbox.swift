extension PluginInspection {
    /// The sandbox of the worker that ran the plugin's code: "full", "partial" or "none".
    var sandboxLevel: String { report.sandbox.level.rawValue }

    /// "full", or "partial (no …)"; nil when no worker ran any of the
    /// plugin's code, because the checks refused the file first.
    package var sandboxSummary: String? {
        report.sandbox == .unconfined && !isWorking ? nil : report.sandbox.summary
    }
}
