import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The writer adaptation's arithmetic (``HeadAdapter``): gradients against finite differences.
@Suite("A writer's head adapter: its gradient and its learning")
struct HeadAdapterTests {
    /// A small adapter with every part non-zero and an example of T frames.
    static func setUp(T: Int = 7, H: Int = 5, C: Int = 4, r: Int = 2, seed: UInt64 = 3)
        -> (HeadAdapter, FeatureMatrix, FeatureMatrix)
    {
        var rng = SplitMix64(seed: seed)
        func draws(_ n: Int, _ s: Double) -> [Float] { (0..<n).map { _ in Float(rng.nextNormal() * s) } }
        let adapter = HeadAdapter(rank: r, inputs: H, classes: C, a: draws(r * H, 0.5), b: draws(C * r, 0.5), d: draws(C, 0.3))
        let f = FeatureMatrix(rows: T, columns: H, values: draws(T * H, 1))
        // Log-probabilities of random logits.
        var p = draws(T * C, 1.5)
        for t in 0..<T {
            let row = p[(t * C)..<((t + 1) * C)]
            let m = row.max()!
            let lse = m + log(row.reduce(Float(0)) { $0 + exp($1 - m) })
            for c in 0..<C { p[t * C + c] -= lse }
        }
        return (adapter, f, FeatureMatrix(rows: T, columns: C, values: p))
    }

    @Test("∂loss/∂A, ∂B, ∂d match central differences of the CTC loss (and the penalty's of the penalty)")
    func gradientMatchesFiniteDifferences() throws {
        let (adapter, f, p) = Self.setUp()
        let labels = [1, 2, 2, 3]
        let g = try #require(adapter.lossAndGradient(headInput: f, logProbs: p, labels: labels))
        let pen = adapter.penalty(0.3)
        func loss(_ x: HeadAdapter) -> Double { x.lossAndGradient(headInput: f, logProbs: p, labels: labels)!.loss }
        let h: Float = 1e-2
        var worst = 0.0, worstPenalty = 0.0
        for part in 0..<3 {
            let count = [adapter.a.count, adapter.b.count, adapter.d.count][part]
            for i in 0..<count {
                var plus = adapter, minus = adapter
                switch part {
                case 0: plus.a[i] += h; minus.a[i] -= h
                case 1: plus.b[i] += h; minus.b[i] -= h
                default: plus.d[i] += h; minus.d[i] -= h
                }
                let numeric = (loss(plus) - loss(minus)) / (2 * Double(h))
                let analytic = [g.a, g.b, g.d][part][i]
                worst = max(worst, abs(numeric - analytic))
                let numericPenalty = (plus.penalty(0.3).value - minus.penalty(0.3).value) / (2 * Double(h))
                worstPenalty = max(worstPenalty, abs(numericPenalty - [pen.a, pen.b, pen.d][part][i]))
            }
        }
        #expect(worst < 2e-3, "largest difference \(worst)")
        #expect(worstPenalty < 2e-3, "largest difference \(worstPenalty)")
        #expect(g.loss > 0)
    }

    @Test("the fixture's adapter cases: loss and the gradients of A, B and d are PyTorch's (1e-5 relative)")
    func fixtureIsPyTorchs() throws {
        let cases = try Fixtures.json("ctc-gradient.json")["adapter"] as! [[String: Any]]
        #expect(cases.count >= 2)
        typealias T = CTCGradientTests
        for c in cases {
            let name = c["name"] as! String
            let f = T.matrix(c["headInput"]), p = T.matrix(c["logProbs"])
            let a = T.flat(c["a"]).map(Float.init), b = T.flat(c["b"]).map(Float.init), d = T.numbers(c["d"])
            let rank = (c["a"] as! [[NSNumber]]).count
            let adapter = HeadAdapter(rank: rank, inputs: f.columns, classes: p.columns, a: a, b: b, d: d)
            guard let got = adapter.lossAndGradient(headInput: f, logProbs: p, labels: T.labels(c["labels"]),
                                                    blank: (c["blank"] as! NSNumber).intValue)
            else { Issue.record("\(name): nil"); continue }
            let want = (c["loss"] as! NSNumber).doubleValue
            #expect(abs(got.loss - want) <= 1e-5 * max(1, abs(want)), "\(name): loss \(got.loss) vs \(want)")
            for (what, g, w) in [("A", got.a, T.flat(c["aGradient"])), ("B", got.b, T.flat(c["bGradient"])),
                                 ("d", got.d, (c["dGradient"] as! [NSNumber]).map(\.doubleValue))] {
                #expect(g.count == w.count, "\(name) \(what)")
                let worst = zip(g, w).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
                #expect(worst <= 1e-5, "\(name): \(what) gradient off by \(worst) (relative)")
            }
        }
    }

    @Test("a new adapter changes no log-probability; apply is a log-softmax of the shifted logits")
    func newAdapterIsTheIdentity() {
        let (_, f, p) = Self.setUp()
        let fresh = HeadAdapter(rank: 2, inputs: 5, classes: 4)
        #expect(fresh.b.allSatisfy { $0 == 0 } && fresh.d.allSatisfy { $0 == 0 } && fresh.a.contains { $0 != 0 })
        let out = fresh.apply(headInput: f, logProbs: p)
        #expect(maxAbsDifference(out, p) < 1e-5)
        let (adapter, _, _) = Self.setUp()
        let changed = adapter.apply(headInput: f, logProbs: p)
        for t in 0..<changed.rows {
            let row = changed.values[(t * 4)..<((t + 1) * 4)]
            #expect(abs(row.reduce(0) { $0 + exp($1) } - 1) < 1e-5)
        }
        #expect(maxAbsDifference(changed, p) > 1e-2)
    }

    @Test("learning lowers the objective on its examples, deterministically")
    func learningLowersTheObjective() {
        let examples = (0..<4).map { k -> HeadExample in
            let (_, f, p) = Self.setUp(T: 9, seed: UInt64(10 + k))
            return HeadExample(headInput: f, logProbs: p, labels: [1 + k % 3, 3])
        }
        let start = HeadAdapter(rank: 2, inputs: 5, classes: 4)
        let training = HeadAdapterTraining(settings: LearningSettings(steps: 30, learningRate: 0.03, penalty: 0.3))
        let before = training.objective(start, examples).value
        let learned = training.fit(start, to: examples)
        #expect(training.objective(learned, examples).value < before - 0.1)
        #expect(training.fit(start, to: examples) == learned)
    }
}

/// ``WriterProfile`` end to end with the shipped en-US model: save and restore, refusal of another network,
/// readings kept, concurrency.
@Suite("A writer profile learns, saves, restores and refuses another network", .serialized)
struct WriterProfileTests {
    let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    func pairs() throws -> [(Ink, String)] {
        try ["hello.json", "there.json", "argument.json"].map { name in
            let doc = try sample(name)
            return (doc.ink, try #require(doc.label))
        }
    }

    @Test("data() round trip: the same bytes, the same readings; at most 256 KB; every weight, rank 8, on the Latin network")
    func roundTrip() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 8)
        try await profile.learn(from: try pairs())
        #expect(profile.pairsLearned == 3 && profile.isActive)
        let data = profile.data()
        #expect(data.count <= WriterProfile.maxDataSize)
        let restored = try WriterProfile(data: data)
        #expect(restored.data() == data)
        #expect(restored.networkDigest == profile.networkDigest && restored.pairsLearned == 3 && restored.minimumPairs == 0)
        guard case .network(let adapter) = profile.state.withLock({ $0.change }) else {
            Issue.record("a new profile of the Latin network changes every weight"); return
        }
        #expect(adapter.rank == 8 && data.count == WriterProfileFormat.size(of: adapter))
        let ink = try sample("hello.json").ink
        let a = try await recognizer.withOptions { $0.writerProfile = profile }.recognize(ink)
        let b = try await recognizer.withOptions { $0.writerProfile = restored }.recognize(ink)
        #expect(a.candidates.map(\.text) == b.candidates.map(\.text))
        #expect(a.candidates.map(\.score) == b.candidates.map(\.score))
        let plain = try await recognizer.recognize(ink)
        #expect(plain.candidates.first?.score != a.candidates.first?.score, "an active profile changes the scores")
    }

    @Test("a profile learned with the same seed twice is the same, bit for bit; another seed learns another change")
    func seeds() async throws {
        func learned(_ seed: UInt64?) async throws -> Data {
            let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, seed: seed)
            try await profile.learn(from: try pairs())
            return profile.data()
        }
        let byDefault = try await learned(nil)
        #expect(try await learned(41) == byDefault)  // the settings' own seed
        let other = try await learned(7)
        #expect(other != byDefault && other.count == byDefault.count)
        #expect(try await learned(7) == other)
    }

    @Test("learning from pairs the model already reads leaves their readings unchanged")
    func readPairsStayRead() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0)
        let pairs = try pairs()
        try await profile.learn(from: pairs)
        let adapted = recognizer.withOptions { $0.writerProfile = profile }
        for (ink, text) in pairs {
            #expect(try await recognizer.recognize(ink).candidates.first?.text == text)
            #expect(try await adapted.recognize(ink).candidates.first?.text == text)
        }
    }

    @Test("below minimumPairs a profile changes nothing: the same candidates and scores")
    func inactiveProfileChangesNothing() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 50, adapting: nil, steps: 4)  // 50 pairs needed
        try await profile.learn(from: try pairs())
        #expect(!profile.isActive)
        let ink = try sample("argument.json").ink
        let plain = try await recognizer.recognize(ink)
        let with = try await recognizer.withOptions { $0.writerProfile = profile }.recognize(ink)
        #expect(plain.candidates.map(\.score) == with.candidates.map(\.score))
    }

    @Test("a profile for another network is refused with a typed error, recognizing and learning")
    func anotherNetworkIsRefused() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0)
        let russian = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(
            modelDirectory: Fixtures.modelsDirectory.appendingPathComponent("ru")))
        let ink = try sample("hello.json").ink
        await #expect(throws: DigitalInkError.self) {
            _ = try await russian.withOptions { $0.writerProfile = profile }.recognize(ink)
        }
        let restoredForRussian = try WriterProfile(data: profile.data(), for: russian)
        await #expect(throws: DigitalInkError.self) { try await restoredForRussian.learn(from: try pairs()) }
        let applyOnly = try WriterProfile(data: profile.data())
        await #expect(throws: DigitalInkError.self) { try await applyOnly.learn(from: try pairs()) }
    }

    @Test("a profile of version 1 (the output layer alone) still learns, saves, restores and changes readings")
    func headProfile() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: .head)
        try await profile.learn(from: try pairs())
        #expect(profile._kind == .head)
        let data = profile.data()
        #expect(Array(data.prefix(8)) == WriterProfileFormat.magic)
        let restored = try WriterProfile(data: data)
        #expect(restored.data() == data && restored._kind == .head)
        let ink = try sample("there.json").ink
        let a = try await recognizer.withOptions { $0.writerProfile = profile }.recognize(ink)
        let b = try await recognizer.withOptions { $0.writerProfile = restored }.recognize(ink)
        #expect(a.candidates.map(\.score) == b.candidates.map(\.score))
        #expect(try await recognizer.recognize(ink).candidates.first?.score != a.candidates.first?.score)
    }

    @Test("a change whose shapes are not the network's (every weight, or the output layer) is a typed error, recognizing and learning, not a crash")
    func networkChangeOfOtherShapes() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0)
        guard case .network(var adapter) = profile.state.withLock({ $0.change }) else { Issue.record("not a network change"); return }
        adapter.pairs.removeLast(4)  // the last layer's changes gone: the head's change now stands where they stood
        let odd = WriterProfile(networkDigest: profile.networkDigest, minimumPairs: 0, change: .network(adapter), pairsLearned: 1,
                                recognizer: nil)
        let restored = try WriterProfile(data: odd.data())
        await #expect(throws: DigitalInkError.self) {
            _ = try await recognizer.withOptions { $0.writerProfile = restored }.recognize(try sample("hello.json").ink)
        }
        let learner = try WriterProfile(data: odd.data(), for: recognizer)
        await #expect(throws: DigitalInkError.self) { try await learner.learn(from: try pairs()) }
        // The same for a change to the output layer alone of another width (version 1, the right digest).
        let narrow = WriterProfile(networkDigest: profile.networkDigest, minimumPairs: 0,
                                   change: .head(HeadAdapter(rank: 2, inputs: 5, classes: 4)), pairsLearned: 1, recognizer: nil)
        let narrowLearner = try WriterProfile(data: narrow.data(), for: recognizer)
        await #expect(throws: DigitalInkError.self) { try await narrowLearner.learn(from: try pairs()) }
        await #expect(throws: DigitalInkError.self) {
            _ = try await recognizer.withOptions { $0.writerProfile = narrowLearner }.recognize(try sample("hello.json").ink)
        }
    }

    @Test("the shapes a new profile changes, from the configuration alone, are the network's; a CJK network's change to every weight would not fit, so its profile changes the output layer")
    func shapesFromConfiguration() async throws {
        for name in ["en-US", "ar", "ko"] {
            let model = try await DigitalInkRecognizer(options: DigitalInkRecognizerOptions(
                modelDirectory: Fixtures.modelsDirectory.appendingPathComponent(name))).loadedModel()
            let fromFile = LSTMAdapter.shapes(of: try WriterProfile.floatNetwork(of: model))
            let fromConfiguration = LSTMAdapter.shapes(of: model.configuration.network)
            #expect(fromFile.map { [$0.rows, $0.columns] } == fromConfiguration.map { [$0.rows, $0.columns] }, "\(name)")
        }
        let japanese = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: Fixtures.modelsDirectory.appendingPathComponent("ja")))
        let profile = try await WriterProfile(for: japanese, minimumPairs: 0)
        #expect(profile._kind == .head && profile.data().count <= WriterProfile.maxDataSize)
        await #expect(throws: DigitalInkError.self) { _ = try await WriterProfile(for: japanese, minimumPairs: 0, adapting: .network) }
    }

    @Test("damaged profile bytes are typed errors naming the field, never a crash")
    func damagedData() async throws {
        let head = try await WriterProfile(for: recognizer, minimumPairs: 50, adapting: .head)
        try checkDamaged(head.data(), firstFloat: WriterProfileFormat.headerSize)
        let network = try await WriterProfile(for: recognizer)
        guard case .network(let adapter) = network.state.withLock({ $0.change }) else { Issue.record("not a network change"); return }
        let good = network.data()
        try checkDamaged(good, firstFloat: WriterProfileFormat.headerSize + 8 * adapter.pairs.count)
        var count = good; count[44] = 0
        fails(count, field: "weights changed")
        var shape = good; shape[64] = 0; shape[65] = 0
        fails(shape, field: "shape")
        var grown = good; grown[65] = 0x40  // the first weight 16 K rows longer: too many floats for the bytes
        fails(grown, field: "size")
    }

    /// Reading `data` fails with a typed error naming `field`.
    func fails(_ data: Data, field: String) {
        do {
            _ = try WriterProfile(data: data)
            Issue.record("accepted damaged data (\(field))")
        } catch {
            guard case .malformedInput(_, _, let f, _) = error else { Issue.record("\(error)"); return }
            #expect(f == field)
        }
    }

    /// The damages both versions refuse alike: sizes, magic, rank, a float that is not finite (the first, at `at`).
    func checkDamaged(_ good: Data, firstFloat at: Int) throws {
        fails(Data(), field: "size")
        fails(good.prefix(100), field: "size")
        fails(good + Data([0]), field: "size")
        fails(Data(count: WriterProfile.maxDataSize + 1), field: "size")
        var magic = good; magic[0] = 0x58
        fails(magic, field: "magic")
        var rank = good; rank[40] = 0; rank[41] = 0; rank[42] = 0; rank[43] = 0
        fails(rank, field: "rank")
        var nan = good
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { for i in 0..<4 { nan[at + i] = $0[i] } }
        fails(nan, field: "weights")
    }

    @Test("a text with a character the model does not read, or a minimum of pairs a profile cannot keep, is a typed error")
    func unknownCharacter() async throws {
        let profile = try await WriterProfile(for: recognizer)
        let ink = try sample("hello.json").ink
        await #expect(throws: DigitalInkError.self) { try await profile.learn(from: [(ink, "héllo✓")]) }
        await #expect(throws: DigitalInkError.self) { try await profile.learn(from: [(ink, "")]) }
        #expect(profile.pairsLearned == 0)
        // A minimum that data() could not keep in its 32 bits is refused when the profile is made, not a trap later.
        await #expect(throws: DigitalInkError.self) { _ = try await WriterProfile(for: recognizer, minimumPairs: 5_000_000_000) }
        await #expect(throws: DigitalInkError.self) { _ = try await WriterProfile(for: recognizer, minimumPairs: -1) }
        let most = try await WriterProfile(for: recognizer, minimumPairs: Int(UInt32.max), adapting: .head)
        #expect(try WriterProfile(data: most.data()).minimumPairs == Int(UInt32.max))
    }

    @Test("learn and recognize at once on one profile: no data race (make test-tsan), every pair counted")
    func concurrentLearnAndRecognize() async throws {
        // The second learn keeps six pairs, enough for the check: one step for each of its runs.
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 1)
        let adapted = recognizer.withOptions { $0.writerProfile = profile }
        let ink = try sample("there.json").ink
        let pairs = try pairs()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await profile.learn(from: pairs) }
            group.addTask { try await profile.learn(from: pairs) }
            for _ in 0..<4 { group.addTask { _ = try await adapted.recognize(ink) } }
            try await group.waitForAll()
        }
        #expect(profile.pairsLearned == 6)
    }
}
