extension FuzzTarget {
    /// Every target, in the order `scripts/fuzz.sh` runs them.
    ///
    /// Empty in a release build made without `-enable-testing`: the parsers
    /// under test are internal to their modules (see `scripts/fuzz.sh`).
    package static let all: [FuzzTarget] = {
        #if DEBUG || FUZZING
        [
            urlPolicyTarget, lockFileTarget, elfHeaderTarget, pluginInputTarget, decimalAmountTarget, coinbasePriceTarget,
            hostHTTPAnswerTarget, retryAfterTarget, registryCacheTarget, registryCacheWriterTarget, framesFromWorkerTarget,
            framesToWorkerTarget, pluginDescriptorTarget, fetcherRegistrationTarget, bitstampPriceTarget,
        ]
        #else
        []
        #endif
    }()

    /// The target called `name`, if there is one.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
