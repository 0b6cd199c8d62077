extension Rendering {
    /// A RANK cell: the rank alone when the host believed the declared one,
    /// else `128 (declared 256, capped: nobody vouched for it)`.
    static func rankCell(_ rank: UInt32, declared: UInt32, reason: String?) -> String {
        guard let reason else { return "\(rank)" }
        return "\(rank) (declared \(declared), \(reason))"
    }
}
