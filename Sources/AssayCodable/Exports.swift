// AssayCodable builds on AssayCore's rules and AssayJSON's decoder and values: importing it imports
// them, and code `@Validatable` writes names them.
@_exported import AssayCore
@_exported import AssayJSON
