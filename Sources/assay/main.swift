import AssayCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(AssayTool.main(Array(CommandLine.arguments.dropFirst())))
