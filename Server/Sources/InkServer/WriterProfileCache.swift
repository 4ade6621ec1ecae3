import DigitalInk
import Foundation

/// The writer profiles of recent requests, by their bytes: a profile that changes every weight is folded into a
/// network of its own the first time it recognizes (tens of milliseconds), so a client that sends the same
/// profile with each request pays that once, not per request. At most ``capacity`` profiles (the oldest leaves
/// first); each holds its folded network (about 0.4 MB for a Latin model).
final class WriterProfileCache: @unchecked Sendable {
    let capacity: Int
    private let lock = NSLock()
    private var profiles: [Data: WriterProfile] = [:]
    private var order: [Data] = []

    init(capacity: Int = 16) {
        self.capacity = capacity
    }

    /// The profile of `bytes`: a cached one, or a new one read by ``WriterProfile/init(data:for:)`` (whose typed
    /// error it throws) and kept.
    func profile(_ bytes: Data) throws(DigitalInkError) -> WriterProfile {
        if let hit = lock.withLock({ profiles[bytes] }) { return hit }
        let profile = try WriterProfile(data: bytes)
        return lock.withLock {
            if let other = profiles[bytes] { return other }
            if capacity > 0 {
                if order.count >= capacity { profiles[order.removeFirst()] = nil }
                profiles[bytes] = profile
                order.append(bytes)
            }
            return profile
        }
    }

    /// How many profiles are kept.
    var count: Int { lock.withLock { profiles.count } }
}
