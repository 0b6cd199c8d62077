internal import CPatchbay

/// Whether the calling code may run main-actor code; the one place main-actor registrations ask.
enum MainActorCheck {
    /// Throws ``MainActorResolutionError`` for `serviceType` unless the calling code runs on the main actor.
    ///
    /// NB: the check `MainActor.assumeIsolated` makes, without stopping the
    /// program: the runtime compares the current executor with the main
    /// actor's, whose two words are those of `UnownedSerialExecutor`.
    static func require<Service>(_ serviceType: Service.Type) throws(MainActorResolutionError) {
        let mainActor = unsafeBitCast(MainActor.sharedUnownedExecutor, to: (UInt, UInt).self)
        guard pb_is_current_executor(mainActor.0, mainActor.1) else { throw MainActorResolutionError(serviceType) }
    }
}
