import Foundation

extension CharacterNgramTables {
    /// Reads an INKLM1 file (`Training/LM_FORMAT.md`): symbols are the network's class indices,
    /// 16-byte entries of a UInt64 base-256 key and two Float32 values.
    static func readINKLM1(_ bytes: [UInt8], name: String) throws(DigitalInkError) -> CharacterNgramTables {
        var r = LMByteReader(bytes, name: name)
        try r.skip(8)  // magic, checked by the caller
        let order = Int(try r.u32())
        let symbols = Int(try r.u32())
        guard (1...7).contains(order), (2...256).contains(symbols) else {
            throw r.corrupt("order \(order) or symbol count \(symbols) out of range")
        }
        var keys: [[UInt64]] = [], lps: [[Float]] = [], bows: [[Float]] = []
        for n in 1...order {
            let count = Int(try r.u32())
            guard count <= r.remaining / 16 else { throw r.corrupt("order \(n): \(count) entries do not fit in the file") }
            // Filled through buffer pointers (writing the arrays element by element from inside the
            // closure made loading the shipped model several times slower).
            let start = r.position
            let (k, lp, bo) = bytes.withUnsafeBytes { raw in
                (
                    [UInt64](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i, as: UInt64.self))
                        }
                        n = count
                    },
                    [Float](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i + 8,
                                                                                         as: UInt32.self)))
                        }
                        n = count
                    },
                    [Float](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i + 12,
                                                                                         as: UInt32.self)))
                        }
                        n = count
                    }
                )
            }
            try r.skip(16 * count)
            for i in 0..<count {
                guard lp[i].isFinite, lp[i] <= 1e-4, bo[i].isFinite else { throw r.corrupt("order \(n) entry \(i) has an invalid value") }
                guard i == 0 || k[i - 1] < k[i] else { throw r.corrupt("order \(n) keys are not sorted") }
            }
            // n base-256 digits: a key of order n is below 2^(8n) (a fuzz finding: a larger one trapped
            // when the lookup index was built).
            if let last = k.last, last >> UInt64(8 * n) != 0 {
                throw r.corrupt("order \(n) has a key of more than \(n) symbols")
            }
            keys.append(k); lps.append(lp); bows.append(bo)
        }
        guard r.remaining == 0 else { throw r.corrupt("\(r.remaining) unexpected bytes at the end") }
        guard keys[0].count == symbols - 1 else {
            throw r.corrupt("\(keys[0].count) unigrams for \(symbols - 1) symbols")
        }
        return CharacterNgramTables(order: order, symbolCount: symbols, bits: 8, alphabet: nil, unknownLogProbability: -30,
                                    keys: keys, logProbs: lps.map(LMValues.init(floats:)), logBackoffs: bows.map(LMValues.init(floats:)))
    }
}
