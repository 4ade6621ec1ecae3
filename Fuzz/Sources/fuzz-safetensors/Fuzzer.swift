// libFuzzer target: the safetensors reader (SafeTensorsFile(data:name:)), then every tensor it
// accepted is copied out as floats, with its own shape and with a wrong one.
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let file = try? SafeTensorsFile(data: data, name: "fuzz.safetensors") else { return 0 }
    for (name, info) in file.tensors {
        _ = try? file.floats(name, shape: info.shape)
        _ = try? file.floats(name, shape: info.shape + [1])
        _ = try? file.floats(name, shape: [info.range.count])
    }
    _ = try? file.floats("missing", shape: [1])
    return 0
}
