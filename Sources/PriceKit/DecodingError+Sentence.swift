#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DecodingError {
    /// A short clause naming the JSON path that failed and why, e.g.
    /// `the key "data.amount" is missing`. Foundation's own descriptions
    /// are multi-line dumps meant for programmers, not users.
    var sentence: String {
        switch self {
        case .keyNotFound(let key, let context):
            "the key \"\(Self.path(context.codingPath + [key]))\" is missing"
        case .valueNotFound(_, let context):
            "\"\(Self.path(context.codingPath))\" is null"
        case .typeMismatch(let type, let context):
            if context.debugDescription.hasPrefix("must ") {
                "\"\(Self.path(context.codingPath))\" \(context.debugDescription)"
            } else {
                "\"\(Self.path(context.codingPath))\" is not a \(Self.jsonName(of: type))"
            }
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "the body is not valid JSON"
                : "\"\(Self.path(context.codingPath))\" \(context.debugDescription)"
        @unknown default:
            "\(self)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path.isEmpty ? "(top level)" : path
    }

    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Bool.Type: "boolean"
        case is any Numeric.Type: "number"
        case is [String: Any].Type: "JSON object"
        case is any Collection.Type: "array"
        default: "JSON object"
        }
    }
}
