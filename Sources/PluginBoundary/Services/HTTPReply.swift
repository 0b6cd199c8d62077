import PluginABI

/// Where one `http_get` is answered: the plugin's completion and its context.
package struct HTTPReply: Sendable {
    /// The plugin's completion.
    let completion: pb_http_completion_fn
    /// The plugin's `request_context`, handed back untouched.
    let context: OpaqueContext

    /// Calls the plugin's completion with a response that lives only for the call.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - body: The body, lent for the call.
    package func respond(status: Int, body: [UInt8]) {
        deliver { [self] in HTTPCompletion.respond(completion, context.pointer, status: status, body: body) }
    }

    /// Calls the plugin's completion with the reason no response arrived.
    /// - Parameter reason: One line.
    package func fail(_ reason: String) {
        deliver { [self] in HTTPCompletion.fail(completion, context.pointer, reason: reason) }
    }

    /// Runs the completion on a thread of its own: it is plugin code, and may block.
    private func deliver(_ call: @escaping @Sendable () -> Void) {
        do {
            try PluginCallThread.start(call)
        } catch {
            // The header promises exactly one call; late on a host thread beats never.
            call()
        }
    }
}
