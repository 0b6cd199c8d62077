import Patchbay

/// Needs a wallet only later, and fresh leaves on demand; for autoregistration of `Lazy` and `Provider`.
final class Deferring {
    let wallet: Lazy<Wallet>
    let leaves: Provider<Leaf>
    init(wallet: Lazy<Wallet>, leaves: Provider<Leaf>) {
        self.wallet = wallet
        self.leaves = leaves
    }
}
