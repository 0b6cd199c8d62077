extension String {
    /// The string with every line break and tab turned into a space, so
    /// that text from a server or a host cannot break a one-line message.
    /// PluginSDK uses it too, for what it passes across the C boundary.
    package var singleLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator ? " " : scalar
        }))
    }
}
