import Foundation

/// A validated safetensors file: an 8-byte little-endian header length, a JSON header mapping tensor
/// names to `dtype`, `shape` and `data_offsets`, then the tensor bytes.
///
/// Everything is checked before a tensor is handed out: the header length against the file size, the
/// JSON, every dtype, that offsets lie inside the data section and match `shape × dtype size`.
/// The file is read once; tensors are copied out as `[Float]` (F32, F16 and BF16 are accepted; I8 through `int8s`).
struct SafeTensorsFile: Sendable {
    struct TensorInfo: Sendable {
        var dtype: String
        var shape: [Int]
        var range: Range<Int>  // inside `data`
    }

    let name: String
    let tensors: [String: TensorInfo]
    let metadata: [String: String]
    private let data: Data

    /// Largest header we accept (the header is JSON text describing the tensors).
    static let maxHeaderLength = 16 << 20

    init(contentsOf url: URL) throws(DigitalInkError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .modelCorrupt(file: url.lastPathComponent, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, name: url.lastPathComponent)
    }

    init(data: Data, name: String) throws(DigitalInkError) {
        self.name = name
        func corrupt(_ reason: String) -> DigitalInkError { .modelCorrupt(file: name, reason: reason) }
        guard data.count >= 8 else { throw corrupt("file is \(data.count) bytes, shorter than the 8-byte header length") }
        var headerLength: UInt64 = 0
        for i in 0..<8 { headerLength |= UInt64(data[data.startIndex + i]) << (8 * UInt64(i)) }
        guard headerLength <= UInt64(Self.maxHeaderLength), Int(headerLength) <= data.count - 8 else {
            throw corrupt("header length \(headerLength) does not fit in a file of \(data.count) bytes")
        }
        let headerStart = data.startIndex + 8
        let dataStart = headerStart + Int(headerLength)
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data[headerStart..<dataStart])
        } catch {
            throw corrupt("header is not valid JSON")
        }
        guard let header = json as? [String: Any] else { throw corrupt("header is not a JSON object") }
        let dataLength = data.count - 8 - Int(headerLength)
        var tensors: [String: TensorInfo] = [:]
        var metadata: [String: String] = [:]
        for (key, value) in header {
            if key == "__metadata__" {
                if let m = value as? [String: String] { metadata = m }
                continue
            }
            guard let entry = value as? [String: Any],
                  let dtype = entry["dtype"] as? String,
                  let shapeAny = entry["shape"] as? [Any],
                  let offsetsAny = entry["data_offsets"] as? [Any], offsetsAny.count == 2 else {
                throw corrupt("tensor \(key): entry needs dtype, shape and two data_offsets")
            }
            let shape = shapeAny.compactMap { ($0 as? NSNumber)?.intValue }
            let offsets = offsetsAny.compactMap { ($0 as? NSNumber)?.intValue }
            guard shape.count == shapeAny.count, shape.allSatisfy({ $0 >= 0 }), offsets.count == 2 else {
                throw corrupt("tensor \(key): shape and data_offsets must be non-negative integers")
            }
            guard let size = Self.elementSize(dtype) else { throw corrupt("tensor \(key): unsupported dtype \(dtype)") }
            let (count, overflow) = shape.reduce((1, false)) { acc, d in
                let r = acc.0.multipliedReportingOverflow(by: d)
                return (r.partialValue, acc.1 || r.overflow)
            }
            guard !overflow, offsets[0] >= 0, offsets[0] <= offsets[1], offsets[1] <= dataLength else {
                throw corrupt("tensor \(key): data_offsets \(offsets) outside the \(dataLength)-byte data section")
            }
            let bytes = count.multipliedReportingOverflow(by: size)
            guard !bytes.overflow, offsets[1] - offsets[0] == bytes.partialValue else {
                throw corrupt("tensor \(key): \(offsets[1] - offsets[0]) bytes for shape \(shape) of \(dtype)")
            }
            tensors[key] = TensorInfo(dtype: dtype, shape: shape, range: (dataStart + offsets[0])..<(dataStart + offsets[1]))
        }
        self.tensors = tensors
        self.metadata = metadata
        self.data = data
    }

    static func elementSize(_ dtype: String) -> Int? {
        switch dtype {
        case "F32": return 4
        case "F16", "BF16": return 2
        case "I8": return 1
        default: return nil
        }
    }

    /// The tensor `name` as `Float`s, after checking its shape. O(elements).
    func floats(_ tensor: String, shape expected: [Int]) throws(DigitalInkError) -> [Float] {
        guard let info = tensors[tensor] else {
            throw .modelCorrupt(file: name, reason: "tensor \(tensor) is missing")
        }
        guard info.shape == expected else {
            throw .tensorShapeMismatch(tensor: tensor, expected: expected, actual: info.shape)
        }
        guard info.dtype != "I8" else {
            throw .modelCorrupt(file: name, reason: "tensor \(tensor) is I8 where floats are expected")
        }
        let count = info.shape.reduce(1, *)
        // Written through a buffer pointer: element by element into the captured array was several
        // times slower (the model load is measured in Benchmarks/).
        let dtype = info.dtype
        let out = data[info.range].withUnsafeBytes { raw in
            [Float](unsafeUninitializedCapacity: count) { b, n in
                switch dtype {
                case "F32":
                    for i in 0..<count { b[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))) }
                case "F16":
                    for i in 0..<count { b[i] = Self.halfToFloat(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))) }
                default: // BF16
                    for i in 0..<count { b[i] = Float(bitPattern: UInt32(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))) << 16) }
                }
                n = count
            }
        }
        guard out.allSatisfy({ $0.isFinite }) else {
            throw .modelCorrupt(file: name, reason: "tensor \(tensor) has non-finite values")
        }
        return out
    }

    /// The I8 tensor `name` (8-bit weights), after checking its dtype and shape. O(elements).
    func int8s(_ tensor: String, shape expected: [Int]) throws(DigitalInkError) -> [Int8] {
        guard let info = tensors[tensor] else {
            throw .modelCorrupt(file: name, reason: "tensor \(tensor) is missing")
        }
        guard info.shape == expected else {
            throw .tensorShapeMismatch(tensor: tensor, expected: expected, actual: info.shape)
        }
        guard info.dtype == "I8" else {
            throw .modelCorrupt(file: name, reason: "tensor \(tensor) is \(info.dtype), an 8-bit model needs I8")
        }
        return data[info.range].withUnsafeBytes { raw in [Int8](raw.bindMemory(to: Int8.self)) }
    }

    /// IEEE 754 half to single precision, done by hand so it works on every platform.
    static func halfToFloat(_ h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exp = Int((h >> 10) & 0x1F)
        let mant = UInt32(h & 0x3FF)
        if exp == 0 {
            let v = Float(mant) * Float(sign: .plus, exponent: -24, significand: 1)
            return sign != 0 ? -v : v
        }
        if exp == 31 { return Float(bitPattern: sign | 0x7F80_0000 | (mant << 13)) }
        return Float(bitPattern: sign | UInt32(exp - 15 + 127) << 23 | (mant << 13))
    }
}
