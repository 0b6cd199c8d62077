import Patchbay
import Testing

/// A value larger than a `Lazy`'s inline slot, which it keeps on the heap instead.
struct WideValue: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8
}

/// A service that counts its releases, to see that a `Lazy` releases what it kept.
final class CountsRelease {
    let releases: Counter
    init(releases: Counter) { self.releases = releases }
    deinit { releases.increment() }
}

/// What a `Lazy` keeps, inline or on the heap, and releases with it; and the link to its container.
@Suite struct LazySlotTests {
    @Test(arguments: [false, true])
    func aLazyKeepsValuesOfEverySize(large: Bool) throws {
        let container = Container()
        let built = Counter()
        container.register(WideValue.self) { _ in
            built.increment()
            return WideValue(a: 11)
        }
        container.register(Int.self) { _ in
            built.increment()
            return 7
        }
        if large {
            let lazy = try container.resolve(Lazy<WideValue>.self)
            #expect(try lazy.get() == WideValue(a: 11))
            #expect(try lazy.get() == WideValue(a: 11))
        } else {
            let lazy = try container.resolve(Lazy<Int>.self)
            #expect(try lazy.get() == 7)
            #expect(try lazy.get() == 7)
        }
        #expect(built.count == 1)
    }

    @Test func aLazyReleasesTheServiceItKeptWhenItGoes() throws {
        let container = Container()
        let releases = Counter()
        container.register(CountsRelease.self) { _ in CountsRelease(releases: releases) }
        do {
            let lazy = try container.resolve(Lazy<CountsRelease>.self)
            _ = try lazy.get()
            #expect(releases.count == 0)
        }
        #expect(releases.count == 1)
    }

    @Test func aLazyAndAProviderDoNotKeepTheirContainerAlive() throws {
        var container: Container? = Container()
        container?.register(Leaf.self) { _ in Leaf() }
        let lazy = try #require(try container?.resolve(Lazy<Leaf>.self))
        let provider = try #require(try container?.resolve(Provider<Leaf>.self))
        #expect(throws: Never.self) { try provider.get() }
        let gone = WeakReference<Container>()
        gone.object = container
        container = nil
        #expect(gone.object == nil)
        #expect(throws: ResolutionError.self) { try lazy.get() }
        let error = #expect(throws: ResolutionError.self) { try provider.get() }
        #expect(error?.code == .containerReleased)
    }
}
