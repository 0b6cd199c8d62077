import Benchmark
import Dispatch
import Patchbay
@preconcurrency import Swinject
import Workload

/// Returns its argument, hidden from the optimizer.
@inline(never)
func opaque(_ value: UInt64) -> UInt64 { value }

/// Patchbay, Swinject and a dictionary-plus-Mutex floor on the same workload.
///
/// Every benchmark name is `<workload>/<container>`; times are per resolve.
let benchmarks: @Sendable () -> Void = {
    let single = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(1))
    // NB: one iteration of a throughput benchmark is `resolvesPerIteration`
    // resolves, so that its time, printed in whole nanoseconds, has three
    // more digits than a single resolve's.
    let resolvesPerIteration = 1_000
    let batch = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 40)

    let patchbay = Containers.patchbay
    let dictionary = Containers.dictionary

    // MARK: One thread

    Benchmark("Singleton/Patchbay", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? patchbay.resolve(SingletonService.self)) }
    }
    Benchmark("Singleton/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(SingletonService.self)) }
    }
    Benchmark("Singleton/Dictionary+Mutex", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dictionary.resolve(SingletonService.self)) }
    }

    Benchmark("Transient/Patchbay", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? patchbay.resolve(TransientService.self)) }
    }
    Benchmark("Transient/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(TransientService.self)) }
    }
    Benchmark("Transient/Dictionary+Mutex", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dictionary.resolve(TransientService.self)) }
    }

    Benchmark("OneArgument/Patchbay", configuration: single) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try? patchbay.resolve(ArgumentService.self, arguments: index))
        }
    }
    Benchmark("OneArgument/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for index in benchmark.scaledIterations {
            blackHole(swinject.resolve(ArgumentService.self, argument: index))
        }
    }
    Benchmark("OneArgument/Dictionary+Mutex", configuration: single) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(dictionary.resolve(ArgumentService.self, argument: index))
        }
    }

    Benchmark("Graph7/Patchbay", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? patchbay.resolve(Root.self)) }
    }
    Benchmark("Graph7/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(Root.self)) }
    }
    Benchmark("Graph7/Dictionary+Mutex", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dictionary.resolve(Root.self)) }
    }

    // MARK: Resolving later, and every registration at once

    Benchmark("Lazy/Patchbay", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? patchbay.resolve(Patchbay.Lazy<TransientService>.self).get())
        }
    }
    Benchmark("Lazy/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(Swinject.Lazy<TransientService>.self)?.instance)
        }
    }
    Benchmark("Provider/Patchbay", configuration: single) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? patchbay.resolve(Patchbay.Provider<TransientService>.self).get())
        }
    }
    Benchmark("Provider/Swinject", configuration: single) { benchmark in
        let swinject = Containers.swinject
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(Swinject.Provider<TransientService>.self)?.instance)
        }
    }
    Benchmark("KeptProvider/Patchbay", configuration: single) { benchmark in
        guard let provider = try? patchbay.resolve(Patchbay.Provider<TransientService>.self) else { return }
        for _ in benchmark.scaledIterations { blackHole(try? provider.get()) }
    }
    Benchmark("KeptProvider/Swinject", configuration: single) { benchmark in
        guard let provider = Containers.swinject.resolve(Swinject.Provider<TransientService>.self) else { return }
        for _ in benchmark.scaledIterations { blackHole(provider.instance) }
    }
    Benchmark("AllOfTen/Patchbay", configuration: single) { benchmark in
        let collection = Containers.patchbayCollection
        for _ in benchmark.scaledIterations { blackHole(try? collection.resolve(All<SingletonService>.self)) }
    }

    // MARK: Throughput, one thread against two
    //
    // Each sample performs the same number of resolves, on one thread or
    // split over two; the ratio of the two times is the two-thread speed-up.
    // Times are per `resolvesPerIteration` resolves.

    func onThreads(_ threads: Int, _ iterations: Int, _ body: @Sendable @escaping () -> Void) {
        let perThread = iterations * resolvesPerIteration / threads
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { body() }
        }
    }

    for threads in [1, 2] {
        let suffix = threads == 1 ? "1 thread" : "2 threads"
        // A control with no shared memory at all: its ratio is the most any
        // container can reach on this machine during this run.
        Benchmark("Control \(suffix)/Arithmetic", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                var state = opaque(42)
                for _ in 0..<8 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                blackHole(state)
            }
        }
        Benchmark("SingletonClass \(suffix)/Patchbay", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(try? patchbay.resolve(SingletonService.self))
            }
        }
        Benchmark("SingletonClass \(suffix)/Swinject", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(Containers.swinjectSynchronized.resolve(SingletonService.self))
            }
        }
        Benchmark("SingletonClass \(suffix)/Dictionary+Mutex", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(dictionary.resolve(SingletonService.self))
            }
        }
        Benchmark("SingletonValue \(suffix)/Patchbay", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(try? patchbay.resolve(SingletonValue.self))
            }
        }
        Benchmark("SingletonValue \(suffix)/Swinject", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(Containers.swinjectSynchronized.resolve(SingletonValue.self))
            }
        }
        Benchmark("SingletonValue \(suffix)/Dictionary+Mutex", configuration: batch) { benchmark in
            onThreads(threads, benchmark.scaledIterations.count) {
                blackHole(dictionary.resolve(SingletonValue.self))
            }
        }
    }
}
