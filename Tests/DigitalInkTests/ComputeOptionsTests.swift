import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("ComputeOptions")
struct ComputeOptionsTests {
    @Test("tools map their environment onto options; the defaults are the fastest kernels and one BLAS thread")
    func environment() {
        #expect(ComputeOptions(environment: [:]) == ComputeOptions() && ComputeOptions.automatic == ComputeOptions())
        #expect(ComputeOptions.portable.isPortable && !ComputeOptions.automatic.isPortable)
        #expect(ComputeOptions(environment: ["DIGITALINK_KERNEL": "portable"]) == .portable)
        #expect(ComputeOptions.portable.lstmKernel == .portable && ComputeOptions.portable.projection == .blas
                && ComputeOptions.portable.int8Kernel == .portable)
        #expect(ComputeOptions().lstmKernel == _LSTMKernel.fastest && ComputeOptions().projection == _ProjectionKernel.fastest)
        let portable = ComputeOptions(environment: ["DIGITALINK_KERNEL": "portable"])
        #expect(portable.recurrentKernel == .portable && portable.projectionKernel == .blas)
        #expect(ComputeOptions(environment: ["DIGITALINK_PROJECTION": "blas"]).projectionKernel == .blas)
        #expect(ComputeOptions(environment: ["DIGITALINK_BLAS_THREADS": "4"]).blasThreads == 4)
        #expect(ComputeOptions(environment: ["DIGITALINK_BLAS_THREADS": "9999", "DIGITALINK_KERNEL": "bogus"]) == ComputeOptions())
    }

    @Test("a recognizer with the portable kernels gives the same text as with the fastest")
    func portableRecognizer() async throws {
        let ink = try sample("line.json").ink
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        let fast = try await DigitalInkRecognizer(options: options).recognize(ink)
        options.compute = .portable
        let portable = try await DigitalInkRecognizer(options: options).recognize(ink)
        #expect(fast.best?.text == portable.best?.text)
        // The 8-bit network's log-probabilities agree within 2e-3 a frame between the kernels (NetworkGoldenTests:
        // the first layer's float products are summed in another order, and a last-bit difference can move a
        // per-frame 8-bit activation by one code); a line's score sums over about 125 frames.
        #expect(abs((fast.best?.score ?? 0) - (portable.best?.score ?? 1)) < 0.1)
        options.compute.blasThreads = 0
        await #expect(throws: DigitalInkError.invalidOption(name: "blasThreads", reason: "0 is outside 1...64")) {
            try await DigitalInkRecognizer(options: options).recognize(ink)
        }
    }
}

@Suite("ModelDownloadProgress")
struct ModelDownloadProgressTests {
    @Test("prints as one line")
    func description() throws {
        let model = DigitalInkRecognitionModel(modelIdentifier: try DigitalInkRecognitionModelIdentifier(languageTag: "en-US"))
        #expect("\(ModelDownloadProgress(model: model, phase: .fetchingManifest))" == "en-US: reading the manifest")
        #expect("\(ModelDownloadProgress(model: model, phase: .downloading, version: "1.3.0", completedBytes: 42, totalBytes: 100))"
            == "en-US 1.3.0: downloading 42%")
        #expect("\(ModelDownloadProgress(model: model, phase: .installed, version: "1.3.0"))" == "en-US 1.3.0: installed")
    }
}
