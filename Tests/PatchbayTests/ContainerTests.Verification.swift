import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Verification {
        private func completeContainer() -> Container {
            let container = Container()
            container.register((any NetworkClient).self, scope: .singleton) { _ in StubNetworking() }
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            .implements((any PriceFetching).self)
            .implements((any PriceUpdating).self)
            container.register(PriceViewModel.self) { r in try PriceViewModel(resolving: r) }
            return container
        }

        @Test func aCompleteContainerVerifies() throws {
            let graph = try completeContainer().verify()
            #expect(graph.nodes.map(\.description) == ["BitcoinPriceFetcher", "NetworkClient", "PriceViewModel"])
            #expect(
                graph.edges.map(\.description) == [
                    "BitcoinPriceFetcher -> NetworkClient",
                    "PriceViewModel -> BitcoinPriceFetcher (as PriceFetching)",
                    "PriceViewModel -> BitcoinPriceFetcher (as PriceUpdating)",
                ])
        }

        @Test func reportsEveryFailureAtOnce() {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            container.register(CycleA.self) { r in CycleA(try r.resolve()) }
            container.register(CycleB.self) { r in CycleB(try r.resolve()) }
            container.register(CycleC.self) { r in CycleC(try r.resolve()) }
            container.register(Leaf.self) { _ in Leaf() }
            container.register(Wallet.self) { _ -> Wallet in throw FactoryFailure(reason: "locked") }
            let error = #expect(throws: VerificationError.self) { try container.verify() }
            #expect(error?.checkedCount == 6)
            #expect(
                error?.failures.map(\.registration.description) == [
                    "BitcoinPriceFetcher [graph]", "CycleA [graph]", "CycleB [graph]", "CycleC [graph]",
                    "Wallet [graph]",
                ])
            #expect(
                error?.failures.map(\.error.code) == [
                    .notRegistered, .circularDependency, .circularDependency, .circularDependency, .factoryFailed,
                ])
            let description = error?.description ?? ""
            #expect(description.hasPrefix("Verification failed: 5 of 6 registrations could not be resolved.\n"))
            #expect(description.contains("1. BitcoinPriceFetcher [graph]:\n   No registration for NetworkClient."))
            #expect(description.contains("Circular dependency: CycleA > CycleB > CycleC > CycleA."))
            #expect(description.contains("FactoryFailure(locked)"))
        }

        @Test func verificationDoesNotTouchTheRealSingletons() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .singleton) { _ in
                built.increment()
                return Leaf()
            }
            try container.verify()
            try container.verify()
            #expect(built.count == 2)
            let leaf = try container.resolve(Leaf.self)
            #expect(built.count == 3)
            try container.verify()
            #expect(try container.resolve(Leaf.self) === leaf)
        }

        @Test func registrationsWithArgumentsAreCheckedThroughTheirCallers() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            container.register(String.self) { r in try r.resolve(Wallet.self, arguments: "ada").owner }
            let graph = try container.verify()
            #expect(graph.edges.map(\.description) == ["String -> Wallet(arguments: String)"])
        }

        @Test func verifiesThroughParents() {
            let parent = Container()
            parent.register(BitcoinPriceFetcher.self, scope: .singleton) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let child = Container(parent: parent)
            // A parent singleton builds from the parent, which has no networking.
            child.register((any NetworkClient).self) { _ in StubNetworking() }
            let error = #expect(throws: VerificationError.self) { try child.verify() }
            #expect(error?.failures.map(\.registration.description) == ["BitcoinPriceFetcher [singleton]"])
        }

        @Test func missingServicesAppearInTheGraph() {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let graph = container.dependencyGraph()
            #expect(graph.nodes.map(\.isMissing) == [false, true])
            #expect(graph.edges.map(\.description) == ["BitcoinPriceFetcher -> NetworkClient"])
        }

        @Test func exportsGraphvizDOT() throws {
            let graph = try completeContainer().verify()
            #expect(
                graph.dot == """
                    digraph Patchbay {
                      rankdir=LR;
                      node [shape=box];
                      n0 [label="BitcoinPriceFetcher\\n(graph)"];
                      n1 [label="NetworkClient\\n(singleton)"];
                      n2 [label="PriceViewModel\\n(graph)"];
                      n0 -> n1;
                      n2 -> n0 [label="as PriceFetching"];
                      n2 -> n0 [label="as PriceUpdating"];
                    }
                    """)
        }

        @Test func exportsMermaid() throws {
            let graph = try completeContainer().verify()
            #expect(
                graph.mermaid == """
                    graph LR
                      n0["BitcoinPriceFetcher<br/>(graph)"]
                      n1["NetworkClient<br/>(singleton)"]
                      n2["PriceViewModel<br/>(graph)"]
                      n0 --> n1
                      n2 -->|"as PriceFetching"| n0
                      n2 -->|"as PriceUpdating"| n0
                    """)
        }

        @Test func exportsMarkMissingServicesAndEscapeNames() {
            let container = Container()
            container.register(Wallet.self, name: "say \"hi\"") { r in
                Wallet(owner: try r.resolve(String.self, name: "<owner>"))
            }
            let graph = container.dependencyGraph()
            #expect(graph.dot.contains(#"n1 [label="Wallet(name: \"say \\\"hi\\\"\")\n(graph)"];"#))
            #expect(graph.dot.contains(#"n0 [label="String(name: \"<owner>\")\n(not registered)", style=dashed, color=red];"#))
            #expect(graph.mermaid.contains(#"n0["String(name: #quot;#lt;owner#gt;#quot;)<br/>(not registered)"]"#))
            #expect(graph.mermaid.hasSuffix("  classDef missing stroke:#d00,stroke-dasharray:4\n  class n0 missing"))
        }

        /// A name may come from a plugin: escapes, line breaks and bidirectional
        /// controls in it are shown, never written raw to a terminal.
        @Test func exportsShowControlAndBidirectionalCharactersEscaped() {
            let container = Container()
            container.register(Leaf.self, name: "a\u{1B}[2J\n\u{9B}\u{200F}\u{202E}\u{2029}\u{2067}b") { _ in Leaf() }
            let graph = container.dependencyGraph()
            #expect(graph.dot.contains(#"Leaf(name: \"a\\u{1B}[2J\\n\\u{9B}\\u{200F}\\u{202E}\\u{2029}\\u{2067}b\")"#), "\(graph.dot)")
            #expect(graph.mermaid.contains(#"Leaf(name: #quot;a\u{1B}[2J\n\u{9B}\u{200F}\u{202E}\u{2029}\u{2067}b#quot;)"#), "\(graph.mermaid)")
        }
    }

    @Suite struct Introspection {
        @Test func listsTypeNameScopeAndArgumentTypes() {
            let container = Container()
            container.register(Wallet.self, name: "cold", scope: .singleton) { (_, owner: String, limit: Int) in
                Wallet(owner: owner, limit: limit)
            }
            container.register(Leaf.self) { _ in Leaf() }
            let registrations = container.registrations()
            #expect(registrations.map(\.description) == [
                "Leaf [graph]", #"Wallet(name: "cold", arguments: String, Int) [singleton]"#,
            ])
            let wallet = registrations[1]
            #expect(ObjectIdentifier(wallet.serviceType) == ObjectIdentifier(Wallet.self))
            #expect(wallet.name == "cold")
            #expect(wallet.scope == .singleton)
            #expect(wallet.argumentTypes.map { "\($0)" } == ["String", "Int"])
        }

        @Test func listsInheritedRegistrationsUnlessOverridden() {
            let parent = Container()
            parent.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            parent.register(Wallet.self) { _ in Wallet(owner: "p") }
            let child = Container(parent: parent)
            child.register(Leaf.self, scope: .unique) { _ in Leaf() }
            #expect(child.registrations().map(\.description) == ["Leaf [unique]", "Wallet [graph]"])
            #expect(child.registrations(includingParents: false).map(\.description) == ["Leaf [unique]"])
        }
    }
}
