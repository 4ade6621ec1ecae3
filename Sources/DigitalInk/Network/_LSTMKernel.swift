import _InkKernels
import Foundation

/// How the LSTM's recurrent steps are computed. Internal.
///
/// - `portable`: one BLAS `sgemv` per step and direction over `W_hh` transposed, then the cell in
///   Swift SIMD. Any CPU.
/// - `avx2`: `ink_lstm_step` from `_InkKernels`: the recurrent product over weights packed at load
///   time and the cell, fused, in AVX2 + FMA code chosen at run time (x86-64 CPUs that have both).
/// - `avx2f16`: the same with the packed weights in 16 bits (`ink_lstm_step_f16`, F16C), used only
///   for weights that are exactly half-precision values (the exporter rounds `W_hh` so): half the
///   bytes to stream per step, and the product is bound by streaming them. Otherwise `avx2`.
///
/// All compute the same function; they differ only in the order of floating-point additions.
enum _LSTMKernel: String, Sendable, CaseIterable {
    case portable
    case avx2
    case avx2f16 = "avx2-f16"

    /// Whether this CPU runs the kernel.
    var isAvailable: Bool {
        switch self {
        case .portable: return true
        case .avx2:
            return Self.hasAVX2FMA
        case .avx2f16:
            return Self.hasF16C
        }
    }

    private static let hasAVX2FMA: Bool = ink_kernels_avx2_fma_available() != 0
    private static let hasF16C: Bool = ink_kernels_f16c_available() != 0

    /// The fastest kernel this CPU runs (a layer whose weights it cannot use exactly falls back to the
    /// next one). ``ComputeOptions/recurrentKernel`` chooses another.
    static let fastest: _LSTMKernel = [.avx2f16, .avx2].first(where: \.isAvailable) ?? .portable
}

/// How the LSTM's input projection (X · W_ihᵀ for all steps, both directions) and the CTC head are
/// computed. Internal.
///
/// - `blas`: one BLAS `sgemm`, which packs the weights on every call.
/// - `avx512`: `ink_gemm_packed_avx512` over weights packed once at load time (x86-64 CPUs with
///   AVX-512F). The network's CTC head uses it too.
enum _ProjectionKernel: String, Sendable, CaseIterable {
    case blas
    case avx512

    /// Whether this CPU runs the kernel.
    var isAvailable: Bool {
        switch self {
        case .blas: return true
        case .avx512:
            return Self.hasAVX512
        }
    }

    private static let hasAVX512: Bool = ink_kernels_avx512_available() != 0

    /// `avx512` where the CPU runs it, else `blas`. ``ComputeOptions/projectionKernel`` chooses
    /// another.
    static let fastest: _ProjectionKernel = _ProjectionKernel.avx512.isAvailable ? .avx512 : .blas
}
