#if canImport(Foundation)
import Foundation

extension ValidationError: CustomNSError, LocalizedError {
    /// `NSCocoaErrorDomain`, the domain of Core Data's validation errors.
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// A single issue keeps its own Core Data number; several give 1560 ("multiple errors"), as
    /// does a truncated aggregate.
    public var errorCode: Int {
        issues.count == 1 && !isTruncated ? issues[0].coreDataCode : 1560
    }

    /// The localized description, and for several issues `NSDetailedErrors` with one `NSError` per
    /// issue, as Core Data reports them. A truncated aggregate also has `AssayDroppedErrors` and
    /// `AssayDroppedWarnings`, and its description ends with what was dropped.
    public var errorUserInfo: [String: Any] {
        if issues.count == 1 && !isTruncated { return issues[0].nsErrorUserInfo }
        var info: [String: Any] = [NSLocalizedDescriptionKey: text()]
        info["NSDetailedErrors"] = issues.map(\.nsError)
        if isTruncated {
            info["AssayDroppedErrors"] = droppedErrorCount
            info["AssayDroppedWarnings"] = droppedWarningCount
        }
        return info
    }

    /// The issues as text in the current language.
    public var errorDescription: String? { text() }

    /// The aggregate as an `NSError`, built explicitly (the same on Apple platforms and Linux).
    public var nsError: NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }
}

extension ValidationIssue {
    /// The issue as an `NSError` in `NSCocoaErrorDomain` with its Core Data number, its message as
    /// the localized description, and its key, path and value in the user info
    /// (`NSValidationKeyErrorKey`, `NSValidationValueErrorKey`, `AssayPath`, `AssayCode`).
    public var nsError: NSError {
        NSError(domain: NSCocoaErrorDomain, code: coreDataCode, userInfo: nsErrorUserInfo)
    }

    var nsErrorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message,
            "AssayCode": code.description,
            "AssayPath": path.jsonPointer,
        ]
        if let key { info["NSValidationErrorKey"] = key }
        if let value, value != .redacted { info["NSValidationErrorValue"] = value.description }
        if let object { info["NSValidationErrorObject"] = object.description }
        return info
    }
}
#endif
