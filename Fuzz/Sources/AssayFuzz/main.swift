#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver, from `libclang_rt.fuzzer_no_main`: parses libFuzzer's arguments and calls the
/// callback with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runDriver(&argumentCount, &arguments) { data, size in fuzzOne(data, size) })
