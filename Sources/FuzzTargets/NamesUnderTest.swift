#if DEBUG || FUZZING
import PluginBoundary

/// `PluginInput`, under the name issue 29 gives it (trust's rename): when
/// that rename lands, this line goes, and no target changes.
typealias PluginOutputRules = PluginInput
#endif
