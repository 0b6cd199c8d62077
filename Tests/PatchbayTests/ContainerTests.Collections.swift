import Patchbay
import Testing

extension ContainerTests {
    /// `All<T>` and `resolveAll`: every registration of a type at once, with names, in registration order.
    @Suite struct Collections {
        private func fetchers(_ container: Container, _ labels: [String?]) {
            for label in labels {
                container.register((any PriceFetching).self, name: label) { _ in LabelledFetcher(label: label ?? "unnamed") }
            }
        }

        private func labels(_ all: All<any PriceFetching>) -> [String] {
            all.compactMap { ($0 as? LabelledFetcher)?.label }
        }

        @Test func resolvesEveryNameInRegistrationOrder() throws {
            let container = Container()
            fetchers(container, ["ETH", nil, "BTC"])
            container.register((any PriceFetching).self, name: "args") { (_, label: String) in LabelledFetcher(label: label) }
            let all = try container.resolveAll((any PriceFetching).self)
            #expect(all.names == ["ETH", nil, "BTC"])
            #expect(labels(all) == ["ETH", "unnamed", "BTC"])
            #expect((all[name: "BTC"] as? LabelledFetcher)?.label == "BTC")
            #expect(all[name: "SOL"] == nil)
        }

        @Test func registeringANameAgainReplacesItInPlace() throws {
            let container = Container()
            fetchers(container, ["ETH", "BTC"])
            container.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "ETH v2") }
            #expect(labels(try container.resolveAll((any PriceFetching).self)) == ["ETH v2", "BTC"])
        }

        @Test func aChildMergesWithItsParentAndOverridesTheSameName() throws {
            let parent = Container()
            fetchers(parent, ["ETH", "BTC"])
            let child = Container(parent: parent)
            child.register((any PriceFetching).self, name: "SOL") { _ in LabelledFetcher(label: "SOL") }
            child.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "child ETH") }
            let all = try child.resolve(All<any PriceFetching>.self)
            #expect(all.names == ["ETH", "BTC", "SOL"])
            #expect(labels(all) == ["child ETH", "BTC", "SOL"])
            #expect(labels(try parent.resolveAll((any PriceFetching).self)) == ["ETH", "BTC"])
        }

        @Test func forwardedTypesCountUnderTheNameTheyAreForwardedUnder() throws {
            let container = Container()
            container.register(BitcoinPriceFetcher.self, name: "BTC") { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self, name: "BTC")
            fetchers(container, ["ETH"])
            let all = try container.resolveAll((any PriceFetching).self)
            #expect(all.names == ["BTC", "ETH"])
            #expect(all.first is BitcoinPriceFetcher)
        }

        @Test func isEmptyWhenNothingIsRegistered() throws {
            #expect(try Container().resolveAll(Leaf.self).isEmpty)
            #expect(try Container().resolve(All<Leaf>.self).isEmpty)
        }

        @Test func eachServiceIsResolvedInItsScope() throws {
            let container = Container()
            container.register(Leaf.self, name: "one", scope: .singleton) { _ in Leaf() }
            container.register(Leaf.self, name: "many", scope: .unique) { _ in Leaf() }
            let first = try container.resolveAll(Leaf.self)
            let second = try container.resolveAll(Leaf.self)
            #expect(first[0] === second[0])
            #expect(first[1] !== second[1])
        }

        @Test func isInjectedByAutoregistrationAndRecordedByVerify() throws {
            let container = Container()
            fetchers(container, ["ETH", "BTC"])
            container.autoregister(FetcherList.self, initializer: FetcherList.init)
            #expect(labels(try container.resolve(FetcherList.self).fetchers) == ["ETH", "BTC"])
            let graph = try container.verify()
            #expect(
                graph.edges.map(\.description) == [
                    #"FetcherList -> PriceFetching(name: "BTC")"#, #"FetcherList -> PriceFetching(name: "ETH")"#,
                ])
        }

        @Test func aFailingServiceFailsTheCollectionWithItsPath() {
            let container = Container()
            fetchers(container, ["ETH"])
            container.register((any PriceFetching).self, name: "BTC") { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            container.autoregister(FetcherList.self, initializer: FetcherList.init)
            let error = #expect(throws: ResolutionError.self) { try container.resolve(FetcherList.self) }
            #expect(error?.pathDescription == #"FetcherList > PriceFetching(name: "BTC") > NetworkClient"#)
        }

        @Test func aRegistrationMadeAfterACollectionWasResolvedIsListedNextTime() throws {
            let parent = Container()
            parent.register(Leaf.self, name: "a") { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, name: "b") { _ in Leaf() }
            #expect(try child.resolveAll(Leaf.self).names == ["a", "b"])
            #expect(try child.resolve(All<Leaf>.self).names == ["a", "b"])
            child.register(Leaf.self, name: "c") { _ in Leaf() }
            #expect(try child.resolveAll(Leaf.self).names == ["a", "b", "c"], "a registration in the container")
            parent.register(Leaf.self, name: "d") { _ in Leaf() }
            parent.register(Leaf.self) { _ in Leaf() }
            #expect(try child.resolve(All<Leaf>.self).names == ["a", "d", nil, "b", "c"], "and in its parent")
            #expect(try parent.resolveAll(Leaf.self).names == ["a", "d", nil])
        }

        @Test func aNamedOrArgumentRequestForACollectionIsNotRegistered() {
            let error = #expect(throws: ResolutionError.self) {
                try Container().resolve(All<Leaf>.self, name: "x")
            }
            #expect(error?.code == .notRegistered)
        }
    }
}

/// Holds every price fetcher.
final class FetcherList {
    let fetchers: All<any PriceFetching>
    init(fetchers: All<any PriceFetching>) { self.fetchers = fetchers }
}
