public import Patchbay
public import Testing

/// A Swift Testing trait that runs each test with its own ``Patchbay/Container`` as the current container.
///
/// Inside the test, ``Patchbay/Container/current`` is a fresh container, so
/// property wrappers such as `@Injected` resolve from it, and tests that run
/// in parallel never see each other's registrations.
///
/// ```swift
/// @Test(.container { c in
///     c.register(Networking.self) { _ in StubNetworking() }
/// })
/// func fetchesThePrice() throws {
///     let viewModel = PriceViewModel() // its @Injected properties use the stub
///     #expect(try viewModel.price() == "42")
/// }
/// ```
///
/// Applied to a suite, every test in it gets its own container.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    private let inheritsCurrent: Bool
    private let configure: @Sendable (Container) throws -> Void

    init(inheritsCurrent: Bool, configure: @escaping @Sendable (Container) throws -> Void) {
        self.inheritsCurrent = inheritsCurrent
        self.configure = configure
    }

    /// Every test of a suite gets its own container, not one shared by the suite.
    public var isRecursive: Bool { true }

    /// Runs `function` with a new container bound as the current one.
    ///
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case, or nil for a suite.
    ///   - function: The test body.
    /// - Throws: Whatever configuring the container or the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope is entered once with no test case; give the
        // container to each test case instead.
        guard testCase != nil || !test.isSuite else {
            try await function()
            return
        }
        let container = inheritsCurrent ? Container(parent: Container.current) : Container()
        try configure(container)
        try await Container.$current.withValue(container) {
            try await function()
        }
    }
}

extension Trait where Self == ContainerTrait {
    /// Gives each test a child of the current container, configured by `configure`.
    ///
    /// The child sees everything the current container (usually
    /// ``Patchbay/Container/main``) registers, and its own registrations
    /// override those: a mock container over the main one.
    ///
    /// - Parameter configure: Registers the test's services and doubles.
    /// - Returns: The trait.
    public static func container(_ configure: @escaping @Sendable (Container) throws -> Void = { _ in }) -> Self {
        ContainerTrait(inheritsCurrent: true, configure: configure)
    }

    /// Gives each test an empty container with no parent.
    public static var isolatedContainer: Self {
        ContainerTrait(inheritsCurrent: false, configure: { _ in })
    }

    /// Gives each test a container with no parent, configured by `configure`.
    ///
    /// - Parameter configure: Registers everything the test resolves.
    /// - Returns: The trait.
    public static func isolatedContainer(_ configure: @escaping @Sendable (Container) throws -> Void) -> Self {
        ContainerTrait(inheritsCurrent: false, configure: configure)
    }
}
