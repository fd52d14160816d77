import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct AssayMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ValidatableMacro.self, MarkerMacro.self]
}
