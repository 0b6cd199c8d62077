import Patchbay
import Testing

extension ContainerTests {
    /// Ranked registrations: a key resolves to its highest rank, then its first registered; lists give rank order.
    @Suite struct RankedRegistrations {
        private func register(_ container: Container, _ label: String, name: String? = "ETH", rank: Int) {
            container.register((any PriceFetching).self, name: name, rank: rank) { _ in LabelledFetcher(label: label) }
        }

        private func label(_ fetcher: any PriceFetching) -> String? {
            (fetcher as? LabelledFetcher)?.label
        }

        private func labels(_ all: All<any PriceFetching>) -> [String] {
            all.compactMap(label)
        }

        @Test func resolveGivesTheHighestRankWhateverTheOrderOfRegistration() throws {
            let container = Container()
            register(container, "low", rank: 64)
            register(container, "high", rank: 256)
            register(container, "middle", rank: 128)
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == "high")
            #expect(labels(try container.resolveAll((any PriceFetching).self, name: "ETH")) == ["high", "middle", "low"])
        }

        @Test func equalRanksResolveToTheFirstRegistered() throws {
            let container = Container()
            register(container, "first", rank: 128)
            register(container, "second", rank: 128)
            register(container, "lower", rank: 64)
            register(container, "third", rank: 128)
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == "first")
            #expect(
                labels(try container.resolveAll((any PriceFetching).self, name: "ETH")) == ["first", "second", "third", "lower"])
        }

        @Test(arguments: [(-1, ["plain", "ranked"]), (0, ["plain", "ranked"]), (1, ["ranked", "plain"])])
        func aRegistrationWithoutARankCountsAsZero(rank: Int, expected: [String]) throws {
            let container = Container()
            container.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "plain") }
            register(container, "ranked", rank: rank)
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == expected[0])
            #expect(labels(try container.resolveAll((any PriceFetching).self, name: "ETH")) == expected)
        }

        @Test func registeringWithoutARankReplacesEveryRankedRegistration() throws {
            let container = Container()
            register(container, "high", rank: 256)
            register(container, "low", rank: 64)
            container.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "replacement") }
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == "replacement")
            #expect(labels(try container.resolveAll((any PriceFetching).self, name: "ETH")) == ["replacement"])
        }

        @Test func namesAndTypesKeepTheirRankedListsApart() throws {
            let container = Container()
            register(container, "ETH low", rank: 1)
            register(container, "BTC", name: "BTC", rank: 5)
            register(container, "ETH high", rank: 2)
            container.register(String.self, name: "ETH", rank: 9) { _ in "text" }
            #expect(labels(try container.resolveAll((any PriceFetching).self, name: "ETH")) == ["ETH high", "ETH low"])
            #expect(labels(try container.resolveAll((any PriceFetching).self, name: "BTC")) == ["BTC"])
            #expect(try container.resolveAll((any PriceFetching).self, name: "SOL").isEmpty)
            #expect(try container.resolveAll((any PriceFetching).self, name: nil).isEmpty)
            #expect(try container.resolve(String.self, name: "ETH") == "text")
        }

        @Test func allListsEveryRankedRegistrationOfEveryNameInRankOrder() throws {
            let container = Container()
            container.register((any PriceFetching).self, name: "SOL") { _ in LabelledFetcher(label: "SOL") }
            register(container, "ETH 2", rank: 128)
            register(container, "BTC", name: "BTC", rank: 256)
            register(container, "ETH 1", rank: 256)
            register(container, "DOGE", name: "DOGE", rank: -5)
            let all = try container.resolve(All<any PriceFetching>.self)
            // ETH 1 and BTC tie: the name registered first (ETH, by ETH 2) comes first.
            #expect(labels(all) == ["ETH 1", "BTC", "ETH 2", "SOL", "DOGE"])
            #expect(all.names == ["ETH", "BTC", "ETH", "SOL", "DOGE"])
            #expect(label(try #require(all[name: "ETH"])) == "ETH 1")
            #expect(labels(try container.resolveAll((any PriceFetching).self)) == labels(all))
        }

        @Test func withoutRanksAllKeepsRegistrationOrder() throws {
            let container = Container()
            for name in ["ETH", "BTC", "SOL"] {
                container.register((any PriceFetching).self, name: name) { _ in LabelledFetcher(label: name) }
            }
            #expect(labels(try container.resolveAll((any PriceFetching).self)) == ["ETH", "BTC", "SOL"])
        }

        @Test func aChildSeesItsParentsRankedListUntilItRegistersTheKey() throws {
            let parent = Container()
            register(parent, "parent low", rank: 64)
            register(parent, "parent high", rank: 256)
            register(parent, "parent BTC", name: "BTC", rank: 1)
            let child = Container(parent: parent)
            #expect(label(try child.resolve((any PriceFetching).self, name: "ETH")) == "parent high")
            #expect(labels(try child.resolveAll((any PriceFetching).self, name: "ETH")) == ["parent high", "parent low"])

            // The child's own registrations of the key hide all of the parent's, whatever their ranks.
            register(child, "child", rank: 1)
            #expect(label(try child.resolve((any PriceFetching).self, name: "ETH")) == "child")
            #expect(labels(try child.resolveAll((any PriceFetching).self, name: "ETH")) == ["child"])
            // In All, the child's ETH takes the parent's place, before BTC: equal ranks keep that order.
            #expect(labels(try child.resolveAll((any PriceFetching).self)) == ["child", "parent BTC"])
            #expect(labels(try parent.resolveAll((any PriceFetching).self, name: "ETH")) == ["parent high", "parent low"])
            #expect(label(try parent.resolve((any PriceFetching).self, name: "ETH")) == "parent high")
        }

        @Test func eachRankedSingletonKeepsItsOwnInstance() throws {
            let container = Container(defaultScope: .singleton)
            register(container, "first", rank: 2)
            register(container, "second", rank: 1)
            let once = try container.resolveAll((any PriceFetching).self, name: "ETH")
            let again = try container.resolveAll((any PriceFetching).self, name: "ETH")
            #expect(zip(once, again).allSatisfy { $0 === $1 })
            #expect(once[0] !== once[1])
            #expect(try container.resolve((any PriceFetching).self, name: "ETH") === once[0])
        }

        @Test func aLaterHigherRankTakesOverAKeyAlreadyResolved() throws {
            let container = Container(defaultScope: .singleton)
            register(container, "first", rank: 1)
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == "first")
            let all = try container.resolve(All<any PriceFetching>.self)
            register(container, "better", rank: 2)
            #expect(label(try container.resolve((any PriceFetching).self, name: "ETH")) == "better")
            #expect(labels(try container.resolve(All<any PriceFetching>.self)) == ["better", "first"])
            #expect(labels(all) == ["first"])
        }
    }
}
