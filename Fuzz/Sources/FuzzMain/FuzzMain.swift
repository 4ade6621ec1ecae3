// The entry point of every fuzzer.
//
// SwiftPM links an executable target with `--defsym main=<module>_main` on Linux, while
// `-sanitize=fuzzer` links all of libFuzzer, its `main` included (which needs a symbol named
// LLVMFuzzerTestOneInput). So a fuzzer is: a test function `fuzz` in Fuzzer.swift, and a main.swift
// that calls `runFuzzer(fuzz)`: the module's own main runs libFuzzer through LLVMFuzzerRunDriver,
// and LLVMFuzzerTestOneInput, defined here, forwards to the registered function.
// (The test functions are not themselves `@_cdecl("LLVMFuzzerTestOneInput")`: passing such a function
// as a C function pointer from another file emits a second definition of the symbol.)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public typealias FuzzTestFunction = @convention(c) (UnsafeRawPointer?, Int) -> CInt

nonisolated(unsafe) private var registered: FuzzTestFunction?

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    registered?(data, size) ?? 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: FuzzTestFunction
) -> CInt

/// Runs libFuzzer with the process's command line and exits with its status.
public func runFuzzer(_ test: FuzzTestFunction) -> Never {
    registered = test
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
}
