/// One registration of a key that has several, and the rank it was registered with.
struct RankedRegistration: Sendable {
    let registration: Registration
    /// Higher is resolved first; a registration made without a rank has 0.
    let rank: Int
}
