import AssayCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
/// glibc's `mallopt(3)` (its header, malloc.h, is not part of the Glibc module).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let M_TRIM_THRESHOLD: Int32 = -1
private let M_MMAP_THRESHOLD: Int32 = -3

// glibc returns freed memory at the top of the heap to the system as soon as 128 KiB are free, and
// moves its mmap threshold up as large blocks are freed: a stream of 256 KiB blocks then costs a
// `brk` call and fresh zeroed pages per block (a third of the run's time on 1M records). Keep up to
// 64 MiB of free heap for reuse instead; memory stays bounded by the pipeline's peak.
_ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
_ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
#endif

SignalCleanup.install()
exit(AssayTool.main(Array(CommandLine.arguments.dropFirst())))
