import FoundationEssentials

/// The files `host new-plugin` writes, for one language.
///
/// The C project is the checkout's `Examples/CPlugin/coinbase_plugin.c` with
/// its four naming `#define`s rewritten, and a copy of `patchbay_plugin.h`:
/// CI builds and runs that example, so the scaffold is code that is known to
/// work, not a second copy that could drift.
struct PluginTemplate {
    /// The descriptor's name, e.g. "DogecoinPlugin"; also the library's: `libDogecoinPlugin.so`.
    let pluginName: String
    /// The fetcher's symbol, e.g. "DOGE".
    let symbol: String
    /// The fetcher's display name, e.g. "Dogecoin".
    let displayName: String
    /// A Patchbay checkout, when one was found or named.
    let checkout: String?

    /// The Swift package's files, by path relative to the project folder,
    /// depending on the PluginSDK of the checkout at `checkout`.
    func swiftFiles(checkout: String) -> [(path: String, text: String)] {
        let dependency = #".package(name: "patchbay", path: "\#(checkout)", traits: [])"#
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "\(pluginName)",
                platforms: [.macOS(.v15)],
                products: [
                    .library(name: "\(pluginName)", type: .dynamic, targets: ["\(pluginName)"]),
                ],
                dependencies: [
                    // `traits: []`: resolve none of the host's packages.
                    \(dependency),
                ],
                targets: [
                    .target(
                        name: "\(pluginName)",
                        dependencies: [.product(name: "PluginSDK", package: "patchbay")]
                    ),
                ]
            )

            """
        let source = """
            import PluginSDK

            /// The plugin's entry point: the host finds it by the name `patchbay_plugin_entry`.
            @c(patchbay_plugin_entry)
            public func patchbayPluginEntry() -> UnsafeRawPointer {
                PluginExport.descriptor(
                    name: "\(pluginName)", version: "0.1.0",
                    description: "Spot prices of \(displayName) from a Coinbase-compatible API.",
                    // How early `host fetch` asks this plugin when others provide \(symbol) too.
                    rank: .secondary
                ) { services in
                    // The fetcher asks {api_base_url}/v2/prices/\(symbol)-{currency}/spot
                    // through the host's http_get (services.networking).
                    [CoinbaseSpotFetcher(base: "\(symbol)", displayName: "\(displayName)",
                                         networking: services.networking, apiBaseURL: services.apiBaseURL)]
                }
            }

            """
        let build = """
            swift build -c release --product \(pluginName)
            mkdir -p plugins
            cp .build/release/lib\(pluginName).so plugins/
            """
        return [
            ("Package.swift", manifest),
            ("Sources/\(pluginName)/\(pluginName).swift", source),
            ("README.md", readme(language: "Swift", build: build)),
            (".gitignore", ".build/\nplugins/\nfixtures/\n"),
        ]
    }

    /// The C project's files, made from the checkout's example and header.
    func cFiles(example: String, header: String) -> [(path: String, text: String)] {
        let names = ["PLUGIN_NAME": pluginName, "PLUGIN_VERSION": "0.1.0", "FETCHER_SYMBOL": symbol, "FETCHER_DISPLAY_NAME": displayName]
        let lines = example.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3, words[0] == "#define", let value = names[String(words[1])] else { return String(line) }
            return "#define \(words[1]) \"\(value)\""
        }
        let source = lines.joined(separator: "\n")
            .replacing("libSolanaCPlugin.so", with: "lib\(pluginName).so")
            .replacing("coinbase_plugin.c", with: "plugin.c")
            .replacing("host fetch SOL", with: "host fetch \(symbol)")
        let makefile = """
            # Builds lib\(pluginName).so. include/patchbay_plugin.h is the host's
            # C ABI, copied when the project was made; `make PATCHBAY_INCLUDE=DIR`
            # builds against another copy.
            PATCHBAY_INCLUDE ?= include
            CC ?= cc
            CFLAGS ?= -std=c11 -O2 -Wall -Wextra -Werror
            PLUGIN = lib\(pluginName).so

            $(PLUGIN): plugin.c $(PATCHBAY_INCLUDE)/patchbay_plugin.h
            \tmkdir -p plugins
            \t$(CC) $(CFLAGS) -shared -fPIC -I$(PATCHBAY_INCLUDE) -o $@ plugin.c
            \tcp $@ plugins/

            clean:
            \trm -rf $(PLUGIN) plugins

            .PHONY: clean

            """
        return [
            ("plugin.c", source),
            ("include/patchbay_plugin.h", header),
            ("Makefile", makefile),
            ("README.md", readme(language: "C", build: "make    # builds lib\(pluginName).so and copies it into ./plugins")),
            (".gitignore", "*.so\nplugins/\nfixtures/\n"),
        ]
    }

    /// The same README for both languages, but for the build step.
    private func readme(language: String, build: String) -> String {
        """
        # \(pluginName)

        A Patchbay price-fetcher plugin in \(language), made by `host new-plugin`.
        It registers one fetcher, `\(symbol)` (\(displayName)), which asks the
        Coinbase-compatible API the host names (`--api-base-url`) for
        `v2/prices/\(symbol)-{currency}/spot` through the host's `http_get`.

        ## Build and run

        ```sh
        \(build)
        host inspect plugins/lib\(pluginName).so
        host fetch \(symbol) --plugins-dir plugins
        ```

        `--plugins-dir plugins` loads only the plugins in `./plugins`; without it
        the host also loads the plugins in its usual directories (the bundled
        ones, then `./plugins`).

        ## Offline

        ```sh
        mkdir -p fixtures/v2/prices/\(symbol)-USD
        echo '{"data":{"base":"\(symbol)","currency":"USD","amount":"1.2345"}}' > fixtures/v2/prices/\(symbol)-USD/spot.json
        host fetch \(symbol) --plugins-dir plugins --api-base-url "file://$PWD/fixtures"
        ```

        """
    }
}
