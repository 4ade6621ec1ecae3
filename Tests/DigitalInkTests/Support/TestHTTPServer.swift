import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 file server for tests, over POSIX sockets, bound to 127.0.0.1 on an
/// ephemeral port. It serves files from memory, honours `Range: bytes=N-`, records every
/// request, and misbehaves on demand (see ``Behavior``). One request per connection
/// (`Connection: close`); one thread per connection.
final class TestHTTPServer: @unchecked Sendable {
    /// How the server answers requests for one path.
    enum Behavior: Sendable {
        /// Serve the file (or 404 when there is none).
        case normal
        /// Answer with this status and a short body.
        case status(Int)
        /// For the next `times` requests without a `Range` header, announce the full length but
        /// close the connection after `afterBytes` bytes of body; then serve normally.
        case cutOff(afterBytes: Int, times: Int)
        /// Send the body in chunks of `chunkSize` bytes with `delay` between them.
        case slow(chunkSize: Int, delay: Duration)
        /// Send `afterBytes` bytes of body, then nothing more until the client gives up, the
        /// server stops, or ``stallLimit`` has passed (then the connection is closed).
        case stall(afterBytes: Int)
        /// Send `afterBytes` bytes of body, then wait for ``release(_:)`` of the path and send the
        /// rest. A test sees the transfer in flight for as long as it needs, however loaded the
        /// machine (the client giving up, the server stopping or ``stallLimit`` end the wait too).
        case hold(afterBytes: Int)
        /// Ignore `Range` headers and always send the whole file with status 200.
        case ignoreRange
    }

    /// One request as the server saw it.
    struct Request: Sendable {
        var method: String
        var path: String
        /// Header names in lower case.
        var headers: [String: String]
    }

    private struct State {
        var files: [String: Data] = [:]
        var behaviors: [String: Behavior] = [:]
        var requests: [Request] = []
        var running = true
        var connections: Set<Int32> = []
        var released: Set<String> = []
    }

    private let lock = NSLock()
    private var state = State()
    private let listener: Int32
    /// The port the server listens on.
    let port: UInt16
    /// How long, in seconds, a ``Behavior/stall(afterBytes:)`` or ``Behavior/hold(afterBytes:)``
    /// connection waits at most (then it is closed).
    static let stallLimit: Double = 30

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    struct SocketError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts listening on 127.0.0.1 with a port the system picks.
    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SocketError(description: "bind/listen: \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>/`
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Serves `data` at `path` (relative, without a leading slash).
    func setFile(_ path: String, _ data: Data) {
        locked { $0.files[path] = data }
    }

    /// Stops serving `path` (404 from now on).
    func removeFile(_ path: String) {
        locked { _ = $0.files.removeValue(forKey: path) }
    }

    /// Sets how requests for `path` are answered.
    func setBehavior(_ behavior: Behavior, for path: String) {
        locked { $0.behaviors[path] = behavior }
    }

    /// Lets the transfers of `path` held by ``Behavior/hold(afterBytes:)`` go on, now and later.
    func release(_ path: String) {
        locked { _ = $0.released.insert(path) }
    }

    /// Every request so far, in arrival order.
    var requests: [Request] { locked { $0.requests } }

    /// The requests for `path` so far.
    func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }

    /// Stops accepting and closes every connection. Idempotent.
    func stop() {
        let (wasRunning, connections) = locked { state -> (Bool, Set<Int32>) in
            let was = state.running
            state.running = false
            return (was, state.connections)
        }
        guard wasRunning else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private var isRunning: Bool { locked { $0.running } }

    // MARK: Serving

    private func acceptLoop() {
        while isRunning {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard locked({ state -> Bool in
                guard state.running else { return false }
                state.connections.insert(fd)
                return true
            }) else {
                close(fd)
                return
            }
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in
                handle(fd)
                locked { _ = $0.connections.remove(fd) }
                close(fd)
            }
            thread.start()
        }
    }

    private func handle(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        let (file, behavior) = locked { state -> (Data?, Behavior) in
            state.requests.append(request)
            var behavior = state.behaviors[request.path] ?? .normal
            if case .cutOff(let after, let times) = behavior, request.headers["range"] == nil {
                // Count this request against `times`.
                state.behaviors[request.path] = times > 1 ? .cutOff(afterBytes: after, times: times - 1) : .normal
                behavior = .cutOff(afterBytes: after, times: times)
            }
            return (state.files[request.path], behavior)
        }
        if case .status(let status) = behavior {
            respond(fd, status: status, headers: [:], body: Data("status \(status)\n".utf8), method: request.method)
            return
        }
        guard let file else {
            respond(fd, status: 404, headers: [:], body: Data("not found\n".utf8), method: request.method)
            return
        }
        var status = 200
        var body = file
        var headers = ["Accept-Ranges": "bytes"]
        if let range = request.headers["range"], !isIgnoringRange(behavior) {
            guard let start = Self.rangeStart(range), start < file.count else {
                respond(fd, status: 416, headers: ["Content-Range": "bytes */\(file.count)"], body: Data(), method: request.method)
                return
            }
            status = 206
            body = file.subdata(in: start..<file.count)
            headers["Content-Range"] = "bytes \(start)-\(file.count - 1)/\(file.count)"
        }
        headers["Content-Length"] = "\(body.count)"
        guard sendHead(fd, status: status, headers: headers) else { return }
        guard request.method != "HEAD" else { return }
        switch behavior {
        case .cutOff(let after, _) where status == 200:
            _ = sendAll(fd, body.prefix(after))
        case .slow(let chunkSize, let delay):
            var offset = 0
            while offset < body.count, isRunning {
                let end = min(body.count, offset + chunkSize)
                guard sendAll(fd, body.subdata(in: offset..<end)) else { return }
                offset = end
                if offset < body.count { Thread.sleep(forTimeInterval: Self.seconds(delay)) }
            }
        case .stall(let after), .hold(let after):
            // A stall is a hold that is never released.
            guard sendAll(fd, body.prefix(after)) else { return }
            let releasable = if case .hold = behavior { true } else { false }
            let deadline = Date().addingTimeInterval(Self.stallLimit)
            while !(releasable && locked({ $0.released.contains(request.path) })) {
                guard isRunning, Date() < deadline, !peerClosed(fd) else { return }
                Thread.sleep(forTimeInterval: 0.01)
            }
            _ = sendAll(fd, body.dropFirst(after))
        default:
            _ = sendAll(fd, body)
        }
    }

    private func isIgnoringRange(_ behavior: Behavior) -> Bool {
        if case .ignoreRange = behavior { return true }
        return false
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (s, attoseconds) = duration.components
        return TimeInterval(s) + TimeInterval(attoseconds) / 1e18
    }

    /// `N` from `bytes=N-` or `bytes=N-M`.
    private static func rangeStart(_ value: String) -> Int? {
        guard value.hasPrefix("bytes="), let dash = value.firstIndex(of: "-") else { return nil }
        return Int(value[value.index(value.startIndex, offsetBy: 6)..<dash])
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while buffer.count < 65536 {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
            if buffer.count >= 4, buffer.indices.dropLast(3).contains(where: { Array(buffer[$0..<$0 + 4]) == terminator }) {
                break
            }
        }
        guard let text = String(bytes: buffer, encoding: .utf8),
            let head = text.components(separatedBy: "\r\n\r\n").first
        else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var path = String(parts[1])
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        path = String(path.drop(while: { $0 == "/" })).removingPercentEncoding ?? path
        return Request(method: String(parts[0]), path: path, headers: headers)
    }

    private func respond(_ fd: Int32, status: Int, headers: [String: String], body: Data, method: String) {
        var headers = headers
        headers["Content-Length"] = "\(body.count)"
        guard sendHead(fd, status: status, headers: headers), method != "HEAD" else { return }
        _ = sendAll(fd, body)
    }

    private func sendHead(_ fd: Int32, status: Int, headers: [String: String]) -> Bool {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
        return sendAll(fd, Data(head.utf8))
    }

    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    /// True when the client has closed its end.
    private func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 404: return "Not Found"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
