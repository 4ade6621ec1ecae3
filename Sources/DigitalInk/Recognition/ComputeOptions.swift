/// How a recognizer computes, said by intent: ``automatic`` (the default) or ``portable``, and how
/// many threads BLAS may use.
///
/// ``automatic`` is what an app wants: the fastest kernels this CPU runs (AVX-512 VNNI, AVX2, NEON,
/// chosen at load time) and BLAS on one thread, so that one recognition uses one core and concurrent
/// recognitions scale over cores. ``portable`` runs only BLAS and portable C/Swift code, the same on
/// every CPU: to rule the fast kernels out, or to compare with them. Both give the same text (the
/// 8-bit kernels give the same integer sums; float paths differ in the last bits).
///
/// ```swift
/// var options = DigitalInkRecognizerOptions(model: model)
/// options.compute = .portable
/// ```
///
/// The choice of each instruction set is the engine's (`@_spi(Engine)`: `recurrentKernel` and
/// `projectionKernel`), for benchmarks and tests.
public struct ComputeOptions: Sendable, Hashable, Codable {
    /// The fastest kernels this CPU runs, BLAS on one thread: the default.
    public static var automatic: ComputeOptions { ComputeOptions() }

    /// BLAS and portable code only, the same on every CPU; BLAS on one thread.
    public static var portable: ComputeOptions { ComputeOptions(recurrentKernel: .portable, projectionKernel: .blas) }

    /// True when these options run only portable code (``portable``, whatever ``blasThreads`` is).
    public var isPortable: Bool { recurrentKernel == .portable && projectionKernel == .blas }

    /// The fastest kernels this CPU runs, with `blasThreads` BLAS threads (see ``blasThreads``).
    public init(blasThreads: Int = 1) {
        self.blasThreads = blasThreads
    }

    /// The LSTM's recurrent step.
    ///
    /// For models with 8-bit weights (network precision `int8`) the choice covers all of the
    /// network's 8-bit products (recurrent steps, projections and head): ``fastest`` runs the AVX-512
    /// VNNI kernels where the CPU has them, else the AVX2 ones, else (arm64) the NEON ones, else the
    /// portable ones; ``avx2`` and ``avx2F16`` run the AVX2 + FMA 8-bit kernels (so a CPU with VNNI can
    /// run the path of CPUs without it; where the CPU lacks AVX2, the next one it runs: NEON on arm64,
    /// else portable); ``portable`` the portable C ones. All give the same integer sums.
    @_spi(Engine) public enum RecurrentKernel: String, Sendable, Hashable, Codable, CaseIterable {
        /// The fastest this CPU runs: `avx2F16` for models that store 16-bit recurrent weights, then
        /// `avx2`, then `portable` (8-bit models: AVX-512 VNNI, then AVX2, then NEON, then portable).
        case fastest
        /// BLAS `sgemv` and Swift SIMD, on any CPU (8-bit models: portable C).
        case portable
        /// AVX2 + FMA over float32 weights packed at load time (x86-64; 8-bit models: the AVX2 8-bit
        /// kernels, also on CPUs with AVX-512 VNNI).
        case avx2
        /// AVX2 + FMA + F16C over 16-bit weights (x86-64; only for weights that are exactly 16-bit
        /// values, else `avx2`; 8-bit models: as `avx2`).
        case avx2F16 = "avx2-f16"
    }

    /// The LSTM's input projections and the CTC head.
    @_spi(Engine) public enum ProjectionKernel: String, Sendable, Hashable, Codable, CaseIterable {
        /// `avx512` where the CPU has AVX-512F, else `blas`.
        case fastest
        /// BLAS `sgemm`.
        case blas
        /// AVX-512 over weights packed at load time (x86-64).
        case avx512
    }

    /// The recurrent kernel; a kernel this CPU cannot run falls back to the next one
    /// (`avx2F16`, `avx2`, `portable`). Default ``RecurrentKernel/fastest``.
    @_spi(Engine) public var recurrentKernel: RecurrentKernel = .fastest
    /// The projection kernel; one this CPU cannot run falls back to `blas`. Default
    /// ``ProjectionKernel/fastest``.
    @_spi(Engine) public var projectionKernel: ProjectionKernel = .fastest
    /// Threads OpenBLAS may use, 1...64. Default 1.
    ///
    /// **Per process, not per recognizer:** OpenBLAS has one thread setting for the whole process,
    /// and each model load sets it, so the value of the most recently loaded model applies to every
    /// recognizer. More than 1 helps only a single long recognition on an otherwise idle machine;
    /// concurrent recognitions already use one core each. Accelerate (Apple platforms) ignores it.
    public var blasThreads: Int = 1

    /// Options naming each kernel (engine SPI: benchmarks and tests).
    @_spi(Engine) public init(recurrentKernel: RecurrentKernel, projectionKernel: ProjectionKernel, blasThreads: Int = 1) {
        self.recurrentKernel = recurrentKernel
        self.projectionKernel = projectionKernel
        self.blasThreads = blasThreads
    }

    /// Throws ``DigitalInkError/invalidOption(name:reason:)`` for ``blasThreads`` outside 1...64.
    public func validate() throws(DigitalInkError) {
        guard (1...64).contains(blasThreads) else {
            throw .invalidOption(name: "blasThreads", reason: "\(blasThreads) is outside 1...64")
        }
    }

    /// The engine's recurrent kernel for this choice.
    var lstmKernel: _LSTMKernel {
        switch recurrentKernel {
        case .fastest: return .fastest
        case .portable: return .portable
        case .avx2: return _LSTMKernel.avx2.isAvailable ? .avx2 : .portable
        case .avx2F16: return _LSTMKernel.avx2f16.isAvailable ? .avx2f16 : _LSTMKernel.avx2.isAvailable ? .avx2 : .portable
        }
    }

    /// The engine's 8-bit kernel for this choice (see ``RecurrentKernel``): `avx2` and `avx2F16` name
    /// the AVX2 kernels, so that tests and benchmarks on a CPU with VNNI can run the path of CPUs without
    /// (NEON on arm64, which has no AVX2).
    var int8Kernel: _Int8Kernel {
        switch recurrentKernel {
        case .fastest: return .fastest
        case .portable: return .portable
        case .avx2, .avx2F16: return _Int8Kernel.avx2.usable
        }
    }

    /// The engine's projection kernel for this choice.
    var projection: _ProjectionKernel {
        switch projectionKernel {
        case .fastest, .avx512: return _ProjectionKernel.avx512.isAvailable ? .avx512 : .blas
        case .blas: return .blas
        }
    }
}

extension ComputeOptions {
    /// The options that the variables `DIGITALINK_KERNEL` (`portable`, `avx2`, `avx2-f16`; `portable`
    /// also selects the BLAS projection), `DIGITALINK_PROJECTION` (`blas`, `avx512`) and
    /// `DIGITALINK_BLAS_THREADS` (a count) in `environment` name, over the defaults; unknown values
    /// are ignored. For command-line tools and benchmarks, which pass their process's environment:
    /// the library itself never reads the environment.
    public init(environment: [String: String]) {
        self.init()
        if let k = environment["DIGITALINK_KERNEL"].flatMap(RecurrentKernel.init(rawValue:)) {
            recurrentKernel = k
            if k == .portable { projectionKernel = .blas }
        }
        if let p = environment["DIGITALINK_PROJECTION"].flatMap(ProjectionKernel.init(rawValue:)) { projectionKernel = p }
        if let t = environment["DIGITALINK_BLAS_THREADS"].flatMap(Int.init), (1...64).contains(t) { blasThreads = t }
    }
}
