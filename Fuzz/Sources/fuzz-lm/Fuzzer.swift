// libFuzzer target: the character n-gram language model reader (lm.bin, INKLM1 and INKLM2), then a
// few scores from every model it accepted (symbols inside and outside its alphabet), unbound and bound
// to a few labels (some known to the model, some not).
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let lm = try? CharacterNgramModel(data: data, name: "lm.bin") else { return 0 }
    let n = max(lm.symbolCount, 1)
    var state = lm.startState(preContext: [1 % n, 2 % n, 3 % n])
    for symbol in [0, 1, n - 1, n, 255, 256, 100_000] {
        let (_, next) = lm.score(symbol, after: state)
        state = next
    }
    _ = lm.state(afterSymbols: Array(0..<min(n, 16)))
    let bound = lm.bound(toLabels: ["a", "b", " ", "\u{0142}", "\u{201E}", "e\u{0301}"] + (lm.alphabet?.prefix(3) ?? []))
    var b = bound.startState(preContext: [1, 2, 4, 9])
    for symbol in [0, 1, 3, 5, 6, 7, 9, 10] {
        b = bound.score(symbol, after: b).next
    }
    return 0
}
