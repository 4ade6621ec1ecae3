import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// A confirmed lone letter learns either case (``HeadExample/otherCase(of:model:)``): the loss of the union of two
/// texts (``CTCGradient/union(_:)``), through the whole network and through the output layer alone.
@Suite("A lone letter's pair learns its shape, not its case")
struct LoneLetterCaseTests {
    @Test("the union of losses: −ln Σ e^(−L), each one's weight its share of the probability")
    func union() throws {
        let one = try #require(CTCGradient.union([1.5]))
        #expect(one.loss == 1.5 && one.weights == [1])
        let two = try #require(CTCGradient.union([2, 2]))
        #expect(abs(two.loss - (2 - log(2.0))) < 1e-12 && two.weights == [0.5, 0.5])
        let mixed = try #require(CTCGradient.union([1, 3]))
        #expect(abs(mixed.loss - -log(exp(-1.0) + exp(-3.0))) < 1e-12)
        #expect(abs(mixed.weights[0] - exp(-1.0) / (exp(-1.0) + exp(-3.0))) < 1e-12 && abs(mixed.weights.reduce(0, +) - 1) < 1e-12)
        // Losses whose probabilities underflow a Double still combine (from the smallest).
        let large = try #require(CTCGradient.union([1000, 1001]))
        #expect(large.loss.isFinite && large.loss < 1000 && large.loss > 999)
        #expect(CTCGradient.union([]) == nil)
    }

    @Test("a one-letter text's other case: C for c, a for A; none for a word, a digit, or ß (whose capital is SS)")
    func otherCase() throws {
        let model = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent("en-US"))
        let symbols = { (s: String) in model.labelText.symbols(of: s) }
        #expect(HeadExample.otherCase(of: "C", model: model) == symbols("c"))
        #expect(HeadExample.otherCase(of: "c", model: model) == symbols("C"))
        #expect(HeadExample.otherCase(of: "a", model: model) == symbols("A"))
        #expect(HeadExample.otherCase(of: "É", model: model) == symbols("é") && symbols("é") != nil)
        for text in ["ab", "Ca", "5", "ß", "-", " "] { #expect(HeadExample.otherCase(of: text, model: model) == nil, "\(text)") }
    }

    @Test("through the network: either labeling's loss is the union of each one's, its gradient agrees with finite differences")
    func networkUnion() throws {
        let net = LSTMGradientTests.randomNetwork(seed: 21)
        var g = SplitMix(seed: 22)
        let T = 9
        let x = (0..<T * 3).map { _ in Float.random(in: -1...1, using: &g) }
        let l1 = [2], l2 = [3]
        let a = try #require(net.lossAndGradients(features: x, frames: T, labels: l1))
        let b = try #require(net.lossAndGradients(features: x, frames: T, labels: l2))
        let u = try #require(net.lossAndGradients(features: x, frames: T, anyOf: [l1, l2]))
        #expect(abs(u.loss - CTCGradient.union([a.loss, b.loss])!.loss) < 1e-9)
        #expect(u.loss < min(a.loss, b.loss))
        // One labeling is that labeling's loss and gradient; one CTC cannot align (too long for the frames) is left out.
        let single = try #require(net.lossAndGradients(features: x, frames: T, anyOf: [l1, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]))
        #expect(single.loss == a.loss && single.gradients.headWeight == a.gradients.headWeight)
        #expect(net.lossAndGradients(features: x, frames: T, anyOf: []) == nil)
        func loss(_ n: _FloatLSTMNetwork) -> Double { n.lossAndGradients(features: x, frames: T, anyOf: [l1, l2])!.loss }
        let eps: Float = 1e-2
        for index in [0, 7, 30] {
            var up = net, down = net
            up.layers[0].forward.recurrentWeights[index] += eps; down.layers[0].forward.recurrentWeights[index] -= eps
            let numeric = (loss(up) - loss(down)) / Double(2 * eps)
            let analytic = Double(u.gradients.layers[0].forward.recurrentWeights[index])
            #expect(abs(numeric - analytic) <= 0.02 * max(0.05, abs(analytic)), "W_hh[\(index)]: \(numeric) vs \(analytic)")
            var hu = net, hd = net
            hu.headWeight[index] += eps; hd.headWeight[index] -= eps
            let hn = (loss(hu) - loss(hd)) / Double(2 * eps), ha = Double(u.gradients.headWeight[index])
            #expect(abs(hn - ha) <= 0.02 * max(0.05, abs(ha)), "head[\(index)]: \(hn) vs \(ha)")
        }
    }

    @Test("the whole-network objective reads an example's other case: the union's loss")
    func adapterObjective() throws {
        let base = LSTMGradientTests.randomNetwork(seed: 31)
        var g = SplitMix(seed: 32)
        let T = 8
        let features = FeatureMatrix(rows: T, columns: 3, values: (0..<T * 3).map { _ in Float.random(in: -1...1, using: &g) })
        let adapter = LSTMAdapter(network: base, rank: 2, seed: 3)  // B = 0, d = 0: the base network, no penalty
        let training = LSTMAdapterTraining(penalty: 0.1)
        let plain = training.objective(adapter, base: base, [.init(features: features, labels: [4])]).value
        let either = training.objective(adapter, base: base, [.init(features: features, labels: [4], otherCase: [5])]).value
        let other = training.objective(adapter, base: base, [.init(features: features, labels: [5])]).value
        #expect(abs(either - CTCGradient.union([plain, other])!.loss) < 1e-9)
    }

    @Test("the output layer's objective reads an example's other case: the union's loss and gradient")
    func headObjective() throws {
        let (adapter, f, p) = HeadAdapterTests.setUp()
        let training = HeadAdapterTraining(settings: LearningSettings(steps: 1, learningRate: 0.03, penalty: 0))
        let a = training.objective(adapter, [HeadExample(headInput: f, logProbs: p, labels: [1])])
        let b = training.objective(adapter, [HeadExample(headInput: f, logProbs: p, labels: [2])])
        let u = training.objective(adapter, [HeadExample(headInput: f, logProbs: p, labels: [1], otherCase: [2])])
        let union = try #require(CTCGradient.union([a.value, b.value]))
        #expect(abs(u.value - union.loss) < 1e-9)
        for i in u.d.indices { #expect(abs(u.d[i] - (union.weights[0] * a.d[i] + union.weights[1] * b.d[i])) < 1e-9) }
    }
}
