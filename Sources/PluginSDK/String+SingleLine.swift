extension String {
    /// The string with every control character (line breaks, tabs) turned
    /// into a space, so that any error's text fits the one-line messages
    /// the C boundary promises.
    var singleLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator ? " " : scalar
        }))
    }
}
