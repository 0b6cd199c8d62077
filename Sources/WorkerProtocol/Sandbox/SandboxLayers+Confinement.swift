import CWorkerSandbox

extension SandboxLayers {
    /// The `pb_sandbox_layer` bits a worker applies when these layers are
    /// turned off: what `pb_sandbox_confine` is asked for, and what the
    /// host's `pb_sandbox_probe` judges.
    package var confinementLayers: UInt32 {
        var layers = UInt32(PB_SANDBOX_ALL_LAYERS)
        if contains(.landlock) {
            layers &= ~(PB_SANDBOX_LANDLOCK_FS.rawValue | PB_SANDBOX_LANDLOCK_NET.rawValue | PB_SANDBOX_LANDLOCK_SCOPE.rawValue)
        }
        if contains(.seccomp) { layers &= ~PB_SANDBOX_SECCOMP.rawValue }
        if contains(.rlimits) { layers &= ~PB_SANDBOX_RLIMITS.rawValue }
        return layers
    }
}
