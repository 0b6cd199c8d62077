// A bare loop of resolves, for counting instructions with callgrind and for
// watching the machine's speed change from round to round, neither of which
// the benchmark harness shows. See BENCHMARKS.md, "Instruction counts".
//
//   ResolveLoop WORKLOAD [COUNT] [ROUNDS] [--each]
//
// Resolves WORKLOAD (singleton, transient, argument, named: a named unique
// service, ranked: the highest of three ranked registrations of it, graph; lazy or provider: a Lazy or Provider of the transient
// service, resolved and used once; provider-get: one kept Provider's get();
// collection: all ten services of one type; all: the same as an injected
// All<T>; or alloc for the allocation alone) COUNT times per round, ROUNDS
// times, and prints the best round's nanoseconds per operation; --each
// prints every round's first.

import Patchbay
import Workload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a value alive and opaque to the optimizer, as the benchmarks' `blackHole` does.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A new instance on the heap: called directly, the optimizer would put it on the stack.
@inline(never)
func makeTransientService() -> TransientService {
    TransientService()
}

func nanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

func fail(_ message: String) -> Never {
    let text = "ResolveLoop: \(message)\nusage: ResolveLoop singleton|transient|argument|named|ranked|graph|lazy|provider|provider-get|collection|all|alloc [COUNT] [ROUNDS] [--each]\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let printsEachRound = arguments.contains("--each")
arguments.removeAll { $0 == "--each" }
guard let workload = arguments.first else { fail("name a workload") }
let numbers = arguments.dropFirst().map { argument -> Int in
    guard let number = Int(argument), number > 0 else { fail("'\(argument)' is not a positive whole number") }
    return number
}
let count = numbers.first ?? 200_000
let rounds = numbers.dropFirst().first ?? 10

let container = PatchbayWorkload.makeContainer()
let body: () throws -> Void
switch workload {
case "singleton": body = { for _ in 0..<count { consume(try container.resolve(SingletonService.self)) } }
case "transient": body = { for _ in 0..<count { consume(try container.resolve(TransientService.self)) } }
case "argument": body = { for index in 0..<count { consume(try container.resolve(ArgumentService.self, arguments: index)) } }
case "graph": body = { for _ in 0..<count { consume(try container.resolve(Root.self)) } }
case "lazy": body = { for _ in 0..<count { consume(try container.resolve(Lazy<TransientService>.self).get()) } }
case "provider": body = { for _ in 0..<count { consume(try container.resolve(Provider<TransientService>.self).get()) } }
case "provider-get":
    let provider = try container.resolve(Provider<TransientService>.self)
    body = { for _ in 0..<count { consume(try provider.get()) } }
case "named":
    let named = PatchbayWorkload.makeNamedContainer()
    body = { for _ in 0..<count { consume(try named.resolve(TransientService.self, name: "named")) } }
case "ranked":
    let ranked = PatchbayWorkload.makeRankedContainer()
    body = { for _ in 0..<count { consume(try ranked.resolve(TransientService.self, name: "ranked")) } }
case "collection":
    let collection = PatchbayWorkload.makeCollectionContainer()
    body = { for _ in 0..<count { consume(try collection.resolveAll(SingletonService.self)) } }
case "all":
    let collection = PatchbayWorkload.makeCollectionContainer()
    body = { for _ in 0..<count { consume(try collection.resolve(All<SingletonService>.self)) } }
case "alloc": body = { for _ in 0..<count { consume(makeTransientService()) } }
default: fail("unknown workload '\(workload)'")
}

var best = Double.infinity
for _ in 0..<rounds {
    let start = nanoseconds()
    do {
        try body()
    } catch {
        fail("\(error)")
    }
    let perOperation = (nanoseconds() - start) / Double(count)
    if printsEachRound { print((perOperation * 10).rounded() / 10, terminator: " ") }
    best = min(best, perOperation)
}
print("\(workload): \((best * 10).rounded() / 10) ns per operation, best of \(rounds) rounds of \(count)")
