import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// A writer profile's check (``HeldOutCheck``, ``WriterProfileCheck``): it runs once the profile would apply, it
/// gates the profile, and it survives `data()` (version 3) with its damages typed.
@Suite("A writer profile checks its change on pairs it did not learn from")
struct WriterProfileCheckTests {
    let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    /// The three labelled samples, twice: six pairs, enough for five runs.
    func pairs() throws -> [(Ink, String)] {
        let three = try ["hello.json", "there.json", "argument.json"].map { name in
            let doc = try sample(name)
            return (doc.ink, try #require(doc.label))
        }
        return three + three
    }

    @Test("the check reads every kept pair once, without a change as the model reads it; none below minimumPairs or with checkSteps 0")
    func checkReadsTheKeptPairs() async throws {
        let pairs = try pairs()
        var wrong = 0
        for (ink, text) in pairs where try await recognizer.recognize(ink).best?.text != text { wrong += 1 }  // one word each
        let checked = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 1)
        try await checked.learn(from: pairs)
        let check = try #require(checked.check)
        #expect(check.pairs == pairs.count && check.words == pairs.count)
        #expect(check.wordErrorsWithout == wrong)
        #expect(check.showsGain == (check.wordErrorsWith < check.wordErrorsWithout))
        #expect(checked.isActive == check.showsGain)

        let unchecked = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 0)
        try await unchecked.learn(from: pairs)
        #expect(unchecked.check == nil && unchecked.isActive)
        let early = try await WriterProfile(for: recognizer, minimumPairs: 50, adapting: nil, steps: 2, checkSteps: 1)
        try await early.learn(from: pairs)
        #expect(early.check == nil && !early.isActive, "no check before the profile would apply")
        await #expect(throws: DigitalInkError.self) {
            _ = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, checkSteps: -1)
        }
    }

    /// The profile's change and the check's five runs side by side (``_LearningParts``): nothing is shared that a part
    /// writes (`make test-tsan` runs this test alone of the two below: two learns, not four), and each part learns what
    /// it learns alone.
    @Test("learn(from:threads:) on three threads: the same profile to the byte and the same check as on one")
    func learnOnSeveralThreads() async throws {
        let (one, many) = try await learnedOnOneAnd(threads: 3)
        #expect(many.check == (try #require(one.check)))
        #expect(many.data() == one.data())
    }

    /// Two profiles of two steps (one each in the check's runs) learned from ``pairs()``, one on one thread, the other
    /// on `threads`.
    func learnedOnOneAnd(threads: Int) async throws -> (one: WriterProfile, many: WriterProfile) {
        let pairs = try pairs()
        let one = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 1)
        try await one.learn(from: pairs)
        let many = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 1)
        try await many.learn(from: pairs, threads: threads)
        return (one, many)
    }

    @Test("learning on from kept pairs on more threads than parts (64 for six) gives what one thread gives; threads outside 1...64 refused")
    func learnOnMoreThreadsThanParts() async throws {
        let pairs = try pairs()
        let (one, many) = try await learnedOnOneAnd(threads: 64)
        #expect(many.data() == one.data())
        // Learning on from the kept pairs and new ones: the change and five runs, six parts on 64 threads.
        try await one.learn(from: Array(pairs.prefix(2)))
        try await many.learn(from: Array(pairs.prefix(2)), threads: 64)
        #expect(many.data() == one.data() && many.check == one.check)
        for threads in [0, -1, WriterProfile.maxLearningThreads + 1] {
            await #expect(throws: DigitalInkError.invalidOption(name: "threads", reason: "\(threads) is outside 1...64")) {
                try await one.learn(from: pairs, threads: threads)
            }
        }
        #expect(one.pairsLearned == 8, "a refused call learns nothing")
    }

    @Test("recheck(through:) runs learn's check again (the same, through the same recognizer); another network is refused; a restored profile keeps no pairs to check")
    func recheck() async throws {
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 1)
        try await profile.learn(from: try pairs())
        let learned = try #require(profile.check)
        #expect(try await profile.recheck(through: recognizer) == learned)
        #expect(profile.check == learned)
        let russian = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(
            modelDirectory: Fixtures.modelsDirectory.appendingPathComponent("ru")))
        await #expect(throws: DigitalInkError.self) { try await profile.recheck(through: russian) }
        let restored = try WriterProfile(data: profile.data(), for: recognizer)
        #expect(try await restored.recheck(through: recognizer) == nil)
        #expect(restored.check == learned)
    }

    @Test("a profile restored past its minimum keeps new pairs, changing nothing, until it has minimumPairs of them; then it learns on from all of them and checks itself on them")
    func restoredProfileWaits() async throws {
        let six = try pairs()
        let profile = try await WriterProfile(for: recognizer, minimumPairs: 6, adapting: nil, steps: 2, checkSteps: 1)
        try await profile.learn(from: six)
        let learned = try #require(profile.check)
        let saved = profile.data()
        let restored = try WriterProfile(data: saved, for: recognizer, steps: 2, checkSteps: 1)
        #expect(restored.pendingPairs == 0)
        try await restored.learn(from: Array(six.prefix(4)))
        #expect(restored.pendingPairs == 4 && restored.pairsLearned == 6)
        #expect(restored.data() == saved, "nothing learned: the change and its check as they were")
        #expect(restored.check == learned && restored.isActive == profile.isActive)
        #expect(try await restored.recheck(through: recognizer) == nil)
        try await restored.learn(from: Array(six.suffix(2)))
        #expect(restored.pendingPairs == 0 && restored.pairsLearned == 12)
        #expect(restored.data() != saved)
        #expect(try #require(restored.check).pairs == 6, "checked on the six pairs it learned on from")
        // A profile never saved learns at once, and so does one saved before it had its minimum of pairs, or one
        // that waits for none.
        let fresh = try await WriterProfile(for: recognizer, minimumPairs: 6, adapting: nil, steps: 2, checkSteps: 1)
        try await fresh.learn(from: Array(six.prefix(2)))
        #expect(fresh.pendingPairs == 0 && fresh.pairsLearned == 2)
        let early = try WriterProfile(data: fresh.data(), for: recognizer, steps: 2, checkSteps: 1)
        try await early.learn(from: Array(six.prefix(1)))
        #expect(early.pendingPairs == 0 && early.pairsLearned == 3 && early.data() != fresh.data())
        let eager = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 2, checkSteps: 0)
        try await eager.learn(from: Array(six.prefix(2)))
        let eagerRestored = try WriterProfile(data: eager.data(), for: recognizer, steps: 2, checkSteps: 0)
        try await eagerRestored.learn(from: Array(six.prefix(1)))
        #expect(eagerRestored.pendingPairs == 0 && eagerRestored.pairsLearned == 3 && eagerRestored.data() != eager.data())
    }

    /// `data` (a version-2 profile) as version 3 with `check` (pairs, words, word errors without and with a change).
    func withCheck(_ data: Data, _ check: (UInt32, UInt32, UInt32, UInt32)) -> Data {
        var out = data
        out[7] = 3
        for v in [check.0, check.1, check.2, check.3] { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }

    @Test("a profile whose check shows no gain changes no reading; one that shows a gain applies; data() keeps the check")
    func theCheckGatesTheProfile() async throws {
        let learned = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: 8, checkSteps: 0)
        try await learned.learn(from: Array(try pairs().prefix(3)))
        let v2 = learned.data()
        #expect(v2[7] == 2, "no check: saved as version 2, as before checks")
        let ink = try sample("argument.json").ink
        let plain = try await recognizer.recognize(ink).candidates.map(\.score)
        let adapted = try await recognizer.withOptions { $0.writerProfile = learned }.recognize(ink).candidates.map(\.score)
        #expect(plain != adapted, "the change alone changes the scores")

        let noGain = try WriterProfile(data: withCheck(v2, (50, 60, 8, 8)))
        #expect(noGain.check == WriterProfileCheck(pairs: 50, words: 60, wordErrorsWithout: 8, wordErrorsWith: 8))
        #expect(!noGain.isActive && noGain.pairsLearned == 3)
        #expect(try await recognizer.withOptions { $0.writerProfile = noGain }.recognize(ink).candidates.map(\.score) == plain)
        #expect(noGain.data() == withCheck(v2, (50, 60, 8, 8)))

        let gain = try WriterProfile(data: withCheck(v2, (50, 60, 8, 7)))
        #expect(gain.isActive && gain.check?.showsGain == true)
        #expect(try await recognizer.withOptions { $0.writerProfile = gain }.recognize(ink).candidates.map(\.score) == adapted)
        #expect(gain.data().count == v2.count + WriterProfileFormat.checkSize && gain.data().count <= WriterProfile.maxDataSize)
    }

    @Test("word errors: a line's words substituted, left out and added; a word split in two is two")
    func wordErrors() {
        func errors(_ text: String, _ reading: String) -> Int {
            HeldOutCheck.edits(HeldOutCheck.words(of: text), HeldOutCheck.words(of: reading))
        }
        #expect(errors("ringlet", "ringlet") == 0)
        #expect(errors("ringlet", "singlet") == 1)
        #expect(errors("ringlet", "ring let") == 2)
        #expect(errors("the cat sat", "the  cat") == 1)
        #expect(errors("the cat sat", "a cat sat on") == 2)
        #expect(errors("the cat", "") == 2)
        #expect(errors("Florida", "florida") == 1)
    }

    @Test("a damaged check is a typed error naming it; a version-3 magic on version-2 bytes is a size error")
    func damagedCheck() async throws {
        let v2 = try await WriterProfile(for: recognizer).data()
        func field(_ data: Data) -> String? {
            do { _ = try WriterProfile(data: data); return nil } catch {
                guard case .malformedInput(_, _, let f, _) = error else { return "\(error)" }
                return f
            }
        }
        let most = UInt32(WriterProfileFormat.maxCheckCount)
        #expect(field(withCheck(v2, (50, 50, 8, 5))) == nil)
        #expect(field(withCheck(v2, (200, most, most, most))) == nil)
        #expect(field(withCheck(v2, (0, 0, 0, 0))) == "check")
        #expect(field(withCheck(v2, (UInt32(WriterProfile.maxKeptPairs) + 1, 0, 0, 0))) == "check")
        #expect(field(withCheck(v2, (5, most + 1, 0, 0))) == "check")
        #expect(field(withCheck(v2, (5, 5, most + 1, 0))) == "check")
        #expect(field(withCheck(v2, (5, 5, 0, UInt32.max))) == "check")
        #expect(field(withCheck(v2, (50, 50, 8, 5)).dropLast(4)) == "size")
        var magic = v2
        magic[7] = 3
        #expect(field(magic) == "size")
    }
}
