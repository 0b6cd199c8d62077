import ArgumentParser

/// `host`'s exit statuses, one meaning each. ArgumentParser names three:
/// ``ExitCode/success`` (0), ``ExitCode/failure`` (1) and
/// ``ExitCode/validationFailure`` (64, sysexits' `EX_USAGE`), which every
/// `ValidationError` and parse error exits with.
extension ExitCode {
    /// `fetch`: a symbol no loaded plugin provides, e.g. because its plugin was refused.
    static let unknownSymbol = ExitCode(2)
}

extension ExitCode {
    /// The exit statuses of a listing (`list-fetchers`, `list-plugins`, `graph`), for their help.
    static let listingStatuses = """
        Exit status: \(ExitCode.success.rawValue) when the listing was printed, even when some plugin files failed \
        (`host list-plugins` says why); \(ExitCode.validationFailure.rawValue) for a usage error, such as a bad flag or environment variable.
        """
}
