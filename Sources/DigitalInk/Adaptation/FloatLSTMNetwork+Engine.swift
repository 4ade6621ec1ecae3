import Foundation

extension _FloatLSTMNetwork {
    /// This network in the engine's kernels, stored as the exporter stores it (`Training/inkrec_training/quantize.py`,
    /// `quantize_state`): with `precision` int8, the recurrent weights, the input weights of every layer but the first
    /// and the head in 8 bits, per output row `s = max|W_row| / 127` (1 for a row of zeros) and `q = round(W / s)`
    /// (ties to even) clamped to ±127; biases in float (b_ih the sum, b_hh zero: the engine adds them). How a writer's
    /// change to every weight reaches recognition: folded into the weights, then quantized once.
    func engineNetwork(configuration c: NetworkConfiguration, compute: ComputeOptions = ComputeOptions()) throws(DigitalInkError) -> RecognitionNetwork {
        let int8 = c.precision == .int8
        var tensors: [(name: String, shape: [Int], values: [Float], quantized: Bool)] = []
        let H = hidden
        for (l, layer) in layers.enumerated() {
            for (sfx, d) in [("", layer.forward), ("_reverse", layer.backward)] {
                let p = "lstms.\(l)."
                tensors.append((p + "weight_ih_l0" + sfx, [4 * H, layer.inputSize], d.inputWeights, int8 && l > 0))
                tensors.append((p + "weight_hh_l0" + sfx, [4 * H, H], d.recurrentWeights, int8))
                tensors.append((p + "bias_ih_l0" + sfx, [4 * H], d.bias, false))
                tensors.append((p + "bias_hh_l0" + sfx, [4 * H], [Float](repeating: 0, count: 4 * H), false))
            }
        }
        tensors.append(("head.weight", [classes, headInputs], headWeight, int8))
        tensors.append(("head.bias", [classes], headBias, false))
        var entries: [(name: String, dtype: String, shape: [Int], bytes: [UInt8])] = []
        for t in tensors {
            if t.quantized {
                let (q, scale) = Self.quantizedRows(t.values, rows: t.shape[0])
                entries.append((t.name, "I8", t.shape, q.map { UInt8(bitPattern: $0) }))
                entries.append((t.name + ".scale", "F32", [t.shape[0]], Self.bytes(scale)))
            } else {
                entries.append((t.name, "F32", t.shape, Self.bytes(t.values)))
            }
        }
        let file = try SafeTensorsFile(data: SafeTensorsFile.encoded(entries), name: "adapted weights")
        return try RecognitionNetwork(configuration: c, file: file, kernel: compute.lstmKernel, projection: compute.projection,
                                      int8: compute.int8Kernel)
    }

    /// The exporter's 8-bit rows (`quantize_rows`): q and the scale per row.
    static func quantizedRows(_ w: [Float], rows: Int) -> (values: [Int8], scale: [Float]) {
        let columns = w.count / rows
        var q = [Int8](repeating: 0, count: w.count), scale = [Float](repeating: 1, count: rows)
        for r in 0..<rows {
            let row = w[r * columns..<(r + 1) * columns]
            let m = row.reduce(0) { max($0, abs($1)) }
            let s: Float = m > 0 ? m / 127 : 1
            scale[r] = s
            for k in 0..<columns { q[r * columns + k] = Int8(max(-127, min(127, (w[r * columns + k] / s).rounded(.toNearestOrEven)))) }
        }
        return (q, scale)
    }

    static func bytes(_ v: [Float]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4 * v.count)
        for x in v { withUnsafeBytes(of: x.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }
}

extension SafeTensorsFile {
    /// A safetensors file of `entries` in their order: the 8-byte header length, the JSON header, the data.
    static func encoded(_ entries: [(name: String, dtype: String, shape: [Int], bytes: [UInt8])]) -> Data {
        var header: [String: Any] = [:]
        var offset = 0
        for e in entries {
            header[e.name] = ["dtype": e.dtype, "shape": e.shape, "data_offsets": [offset, offset + e.bytes.count]] as [String: Any]
            offset += e.bytes.count
        }
        var json = (try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data("{}".utf8)
        while json.count % 8 != 0 { json.append(0x20) }
        var data = Data()
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        for e in entries { data.append(contentsOf: e.bytes) }
        return data
    }
}
