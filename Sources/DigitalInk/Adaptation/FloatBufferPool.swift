/// Float arrays kept between the steps of one training run (``LSTMAdapterTraining/fit(_:base:to:)``), so that a
/// batch's large arrays (traces and their gradients, megabytes each) reuse their memory at every step instead of
/// being mapped, faulted in and given back to the system again: on Linux that churn cost a third of learning's
/// time. Not thread-safe: one run, one pool. Internal.
final class FloatBufferPool {
    private var free: [[Float]] = []
    /// How many arrays it keeps at most (the ones a step gives back).
    let limit: Int

    init(limit: Int = 128) { self.limit = limit }

    /// An array of `count` zeros, in the smallest kept array that holds it, or a new one: ``unset(_:)`` zeroed in
    /// place (a `memset`).
    func zeros(_ count: Int) -> [Float] {
        var out = unset(count)
        out.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        return out
    }

    /// An array of `count` numbers left as a kept array held them (zeros where it is new): for an array its caller
    /// writes in full before reading any of it, which then needs no `memset`.
    func unset(_ count: Int) -> [Float] {
        // A kept array keeps its count: it is cut to `count`, and only what it lacks is appended, element by element.
        var out = taken(reserving: count)
        if out.count > count { out.removeLast(out.count - count) }
        if out.count < count { out.append(contentsOf: repeatElement(0, count: count - out.count)) }
        return out
    }

    /// `values` in a kept array (or a new one).
    func copy(_ values: [Float]) -> [Float] {
        var out = empty(reserving: values.count)
        out.append(contentsOf: values)
        return out
    }

    /// An empty array with room for `count`, from the smallest kept array that holds it, or a new one.
    func empty(reserving count: Int) -> [Float] {
        var out = taken(reserving: count)
        out.removeAll(keepingCapacity: true)
        return out
    }

    /// The smallest kept array with room for `count` as it was kept, or a new empty one with that room.
    private func taken(reserving count: Int) -> [Float] {
        var best: Int? = nil
        for i in free.indices where free[i].capacity >= count && (best.map { free[i].capacity < free[$0].capacity } ?? true) { best = i }
        guard let best else {
            var out: [Float] = []
            out.reserveCapacity(count)
            return out
        }
        free.swapAt(best, free.count - 1)
        return free.removeLast()
    }

    /// Keeps `array`'s memory for a later ``zeros(_:)``, leaving it empty.
    func recycle(_ array: inout [Float]) {
        var taken: [Float] = []
        swap(&taken, &array)
        if free.count < limit, taken.capacity > 0 { free.append(taken) }
    }
}
