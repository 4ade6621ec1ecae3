// Filters for crashes that are known and being fixed (Fuzz/README.md, "Known issues"), so that a run
// gets past them and can find something new. On unless FUZZ_SKIP_KNOWN=0; remove a filter once its
// fix has landed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// False when FUZZ_SKIP_KNOWN=0 is set: then known crashes are reported like any other.
public let skipKnownIssues: Bool = {
    guard let value = getenv("FUZZ_SKIP_KNOWN") else { return true }
    return String(cString: value) != "0"
}()

/// True when `bytes` (that the caller found to be InkML) would hit a known crash of the XML parser:
/// invalid UTF-8, or a processing instruction without data.
public func isKnownInkMLCrash(_ bytes: UnsafeRawBufferPointer) -> Bool {
    isKnownInkMLUTF8Crash(bytes) || isKnownInkMLProcessingInstructionCrash(bytes)
}

/// Found by fuzz-inkml: a processing instruction without data (`<ink><?pi?></ink>`) makes libxml2 pass
/// a NULL data pointer, and FoundationXML's `_NSXMLParserProcessingInstruction` calls strlen on it
/// (SEGV). True when known issues are skipped and `bytes` contain `<?` + name (no whitespace) + `?>`.
public func isKnownInkMLProcessingInstructionCrash(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard skipKnownIssues, bytes.count >= 4 else { return false }
    var i = 0
    while i + 1 < bytes.count {
        if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") {
            var j = i + 2
            while j < bytes.count, bytes[j] != UInt8(ascii: "?"), bytes[j] > 0x20 { j += 1 }
            if j + 1 < bytes.count, bytes[j] == UInt8(ascii: "?"), bytes[j + 1] == UInt8(ascii: ">") { return true }
        }
        i += 1
    }
    return false
}

/// Known: InkML with invalid UTF-8 traps inside Foundation's XMLParser. True when known issues are
/// skipped and `bytes` (that the caller found to be InkML) are not valid UTF-8.
public func isKnownInkMLUTF8Crash(_ bytes: UnsafeRawBufferPointer) -> Bool {
    skipKnownIssues && String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) == nil
}
