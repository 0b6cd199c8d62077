import ArgumentParser

/// `host`'s exit statuses, one meaning each. ArgumentParser names three:
/// ``ExitCode/success`` (0), ``ExitCode/failure`` (1) and
/// ``ExitCode/validationFailure`` (64, sysexits' `EX_USAGE`), which every
/// `ValidationError` and parse error exits with.
extension ExitCode {
    /// `fetch`: a symbol no loaded plugin provides, e.g. because its plugin was refused.
    static let unknownSymbol = ExitCode(2)
}
