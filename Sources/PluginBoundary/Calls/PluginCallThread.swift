import Glibc

/// Runs a call into plugin code on a thread of its own.
///
/// A plugin may block whatever thread calls it, for any length of time.
/// Called from the cooperative pool, two such calls would take both of this
/// machine's threads and with them every timer, so `--timeout` would never
/// fire. On a detached thread the call blocks only itself: the host times the
/// fetch out, reports it and exits, and the thread is abandoned with the
/// process. A thread that finished its call waits a while for another
/// (``IdleCallThreads``), so a worker's calls do not use up the PIDs its
/// namespace allows.
package enum PluginCallThread {
    /// Why no thread could be started: `code` is `pthread_create`'s
    /// result, e.g. `EAGAIN` at the thread limit. Its ``SystemError/sentence``
    /// reads "cannot start a thread for the plugin call: Resource temporarily unavailable".
    package static func startError(_ code: Int32) -> SystemError {
        SystemError(operation: "start a thread for the plugin call", errno: code)
    }

    /// Starts `body` on a new detached thread and returns at once.
    /// - Throws: ``startError(_:)`` when the system refuses a thread; `body` has not run.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        if IdleCallThreads.shared.handOff(body) { return }
        let idle = IdleCallThreads.shared
        let box = Unmanaged.passRetained(Body {
            // This call, then each one handed to this thread while it waits.
            let slot = IdleCallThreads.Slot()
            var call: (@Sendable () -> Void)? = body
            while let next = call {
                next()
                call = idle.next(on: slot)
            }
        }).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            // Unwrapped safely: pthread_create passes back the pointer given below.
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw startError(result)
        }
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
