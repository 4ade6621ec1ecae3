import Foundation

/// One confirmed pair as learning reads it: the frozen network's head input and log-probabilities for the ink,
/// and the classes of the text. Internal.
struct HeadExample: Sendable {
    let headInput: FeatureMatrix
    let logProbs: FeatureMatrix
    let labels: [Int]
    /// A lone letter's other case (``otherCase(of:model:)``): the example then learns either case.
    let otherCase: [Int]?

    init(headInput: FeatureMatrix, logProbs: FeatureMatrix, labels: [Int], otherCase: [Int]? = nil) {
        self.headInput = headInput
        self.logProbs = logProbs
        self.labels = labels
        self.otherCase = otherCase
    }

    /// `ink` read by `model`'s network (without any profile) and `text` as its classes; nil for an ink without
    /// points. Throws for an empty text, a character the model does not read, or an ink too long.
    init?(ink: Ink, text: String, model: LoadedModel) throws(DigitalInkError) {
        let labels = try Self.labels(of: text, model: model)
        var origins: [FeatureExtractor.FrameOrigin]? = nil
        let frames = try model.features.features(for: ink, writingArea: nil, origins: &origins)
        guard frames.rows > 0 else { return nil }
        let (p, f) = model.network.logProbabilities(frames, keepingHeadInput: true)
        guard let f else { return nil }
        self.init(headInput: f, logProbs: p, labels: labels, otherCase: Self.otherCase(of: text, model: model))
    }

    /// The classes of a one-letter `text`'s other case (C for c, a for A) where the model writes it; nil for a
    /// longer text, a character without case, or a case that is not one character (ß's is SS).
    ///
    /// A lone letter's ink does not show its case: c and C, o and O, s and S, w and W differ in size alone, and a
    /// letter alone has nothing to compare its size with. A writer's confirmed "C" would teach the profile that
    /// their c is C, and it then reads their later words with a capital (a UNIPEN writer whose first 50 words hold
    /// 14 capitals alone lost 13 later words so: church → Church). Such a pair learns either case: the loss of the
    /// union, −ln(P(text) + P(other case)) (``CTCGradient/union(_:)``), which teaches the letter's shape and leaves
    /// its case to the model and its language model; where the shapes differ (a and A) the network already gives
    /// the other case little probability, and the loss is nearly the text's own.
    static func otherCase(of text: String, model: LoadedModel) -> [Int]? {
        guard text.count == 1, let ch = text.first, ch.isCased else { return nil }
        let other = ch.isUppercase ? ch.lowercased() : ch.uppercased()
        guard other.count == 1, other != text, let labels = model.labelText.symbols(of: other) else { return nil }
        return labels
    }

    /// `text` as `model`'s classes (a jamo model's syllable as its jamo). Throws for an empty text or a character
    /// the model does not read.
    static func labels(of text: String, model: LoadedModel) throws(DigitalInkError) -> [Int] {
        guard !text.isEmpty else { throw .invalidOption(name: "pairs", reason: "a text is empty") }
        var labels: [Int] = []
        let labelText = model.labelText
        for ch in text {
            guard let k = labelText.symbols(of: ch) else {
                throw .invalidOption(name: "pairs", reason: "\"\(ch)\" (in \"\(text.prefix(40))\") is not a character the model reads")
            }
            labels.append(contentsOf: k)
        }
        return labels
    }
}

extension LSTMAdapterTraining.Example {
    /// `ink`'s features as `model` reads them and `text` as its classes; nil for an ink without points. Throws
    /// as ``HeadExample/init(ink:text:model:)``.
    init?(ink: Ink, text: String, model: LoadedModel) throws(DigitalInkError) {
        let labels = try HeadExample.labels(of: text, model: model)
        var origins: [FeatureExtractor.FrameOrigin]? = nil
        let frames = try model.features.features(for: ink, writingArea: nil, origins: &origins)
        guard frames.rows > 0 else { return nil }
        self.init(features: frames, labels: labels, otherCase: HeadExample.otherCase(of: text, model: model), ink: ink, text: text)
    }
}

/// Adam on the mean CTC loss of the examples (a lone letter's of either case) plus the adapter's penalty (``HeadAdapter``), from a given
/// adapter: what ``WriterProfile/learn(from:threads:)`` runs. Deterministic (a fixed order, Double arithmetic).
struct HeadAdapterTraining: Sendable {
    let settings: LearningSettings

    /// The mean CTC loss of `examples` under `adapter` plus its penalty, and the gradient (A, B, d). Examples
    /// that CTC cannot align (a text longer than the frames allow) are left out of the mean.
    func objective(_ adapter: HeadAdapter, _ examples: [HeadExample]) -> (value: Double, a: [Double], b: [Double], d: [Double]) {
        var p = adapter.penalty(settings.penalty)
        var losses = 0.0, n = 0
        var ga = [Double](repeating: 0, count: adapter.a.count)
        var gb = [Double](repeating: 0, count: adapter.b.count)
        var gd = [Double](repeating: 0, count: adapter.d.count)
        for e in examples {
            let each = ([e.labels] + (e.otherCase.map { [$0] } ?? [])).compactMap {
                adapter.lossAndGradient(headInput: e.headInput, logProbs: e.logProbs, labels: $0)
            }
            guard let union = CTCGradient.union(each.map(\.loss)) else { continue }  // a lone letter: either case
            losses += union.loss
            n += 1
            for (w, g) in zip(union.weights, each) {
                for i in ga.indices { ga[i] += w * g.a[i] }
                for i in gb.indices { gb[i] += w * g.b[i] }
                for i in gd.indices { gd[i] += w * g.d[i] }
            }
        }
        let scale = n > 0 ? 1 / Double(n) : 0
        for i in ga.indices { p.a[i] += ga[i] * scale }
        for i in gb.indices { p.b[i] += gb[i] * scale }
        for i in gd.indices { p.d[i] += gd[i] * scale }
        return (losses * scale + p.value, p.a, p.b, p.d)
    }

    /// `start` after ``LearningSettings/steps`` Adam steps (β 0.9, 0.999; ε 1e-8; fresh moments) on ``objective``.
    func fit(_ start: HeadAdapter, to examples: [HeadExample]) -> HeadAdapter {
        guard !examples.isEmpty, settings.steps > 0 else { return start }
        var params = start.a.map(Double.init) + start.b.map(Double.init) + start.d.map(Double.init)
        var m = [Double](repeating: 0, count: params.count)
        var v = [Double](repeating: 0, count: params.count)
        let (b1, b2, eps, lr) = (0.9, 0.999, 1e-8, settings.learningRate)
        var current = start
        let na = start.a.count, nb = start.b.count
        for step in 1...settings.steps {
            let g = objective(current, examples)
            let grad = g.a + g.b + g.d
            let c1 = 1 - pow(b1, Double(step)), c2 = 1 - pow(b2, Double(step))
            for i in params.indices {
                m[i] = b1 * m[i] + (1 - b1) * grad[i]
                v[i] = b2 * v[i] + (1 - b2) * grad[i] * grad[i]
                params[i] -= lr * (m[i] / c1) / ((v[i] / c2).squareRoot() + eps)
            }
            current.a = params[0..<na].map(Float.init)
            current.b = params[na..<(na + nb)].map(Float.init)
            current.d = params[(na + nb)...].map(Float.init)
        }
        return current
    }
}
