import CGSL

/// GSL's Nelder–Mead simplex minimiser (`gsl_multimin_fminimizer_nmsimplex2`) over a Swift closure.
///
/// Runs on the calling thread only (the closure is handed to C through the `params` pointer and is not
/// `Sendable`); deterministic: the same start, step and function give the same sequence of evaluations.
/// Used by ``Tuner`` for the continuous weight refinement and by ``Calibrator`` for the least-squares fit.
public struct NelderMead {
    /// The initial simplex's step along each coordinate.
    public var step: Double
    /// Stop when the simplex's characteristic size (`gsl_multimin_fminimizer_size`) falls below this.
    public var tolerance: Double
    /// Stop after the iteration during which the function has been called this many times.
    public var maxEvaluations: Int

    /// A minimiser with the given initial step, size tolerance and evaluation budget.
    public init(step: Double, tolerance: Double, maxEvaluations: Int) {
        self.step = step
        self.tolerance = tolerance
        self.maxEvaluations = maxEvaluations
    }

    /// The best point found, its value, and how many times `function` was called.
    public struct Outcome: Sendable, Equatable {
        /// The minimiser's best point.
        public var point: [Double]
        /// The function's value there.
        public var value: Double
        /// Calls of the function.
        public var evaluations: Int
    }

    /// Minimises `function` from `start` (at least one coordinate).
    public func minimize(from start: [Double], _ function: ([Double]) -> Double) -> Outcome {
        precondition(!start.isEmpty, "Nelder–Mead needs at least one coordinate")
        abrsim_gsl_disable_abort()
        return withoutActuallyEscaping(function) { escaping in
            let box = FunctionBox(escaping)
            let count = start.count
            let x = gsl_vector_alloc(count)!
            let steps = gsl_vector_alloc(count)!
            let minimizer = gsl_multimin_fminimizer_alloc(abrsim_gsl_multimin_nmsimplex2(), count)!
            defer {
                gsl_multimin_fminimizer_free(minimizer)
                gsl_vector_free(steps)
                gsl_vector_free(x)
            }
            for index in 0..<count {
                gsl_vector_set(x, index, start[index])
                gsl_vector_set(steps, index, step)
            }
            var callback = gsl_multimin_function(
                f: { vector, params in
                    let box = Unmanaged<FunctionBox>.fromOpaque(params!).takeUnretainedValue()
                    let size = vector!.pointee.size
                    let point = (0..<size).map { gsl_vector_get(vector, $0) }
                    box.evaluations += 1
                    let value = box.function(point)
                    return value.isNaN ? Double.greatestFiniteMagnitude : value
                }, n: count, params: Unmanaged.passUnretained(box).toOpaque())
            gsl_multimin_fminimizer_set(minimizer, &callback, x, steps)
            while box.evaluations < maxEvaluations {
                guard gsl_multimin_fminimizer_iterate(minimizer) == GSL_SUCCESS else { break }
                let size = gsl_multimin_fminimizer_size(minimizer)
                if gsl_multimin_test_size(size, tolerance) == GSL_SUCCESS { break }
            }
            let best = gsl_multimin_fminimizer_x(minimizer)!
            let point = (0..<count).map { gsl_vector_get(best, $0) }
            return Outcome(
                point: point, value: gsl_multimin_fminimizer_minimum(minimizer), evaluations: box.evaluations)
        }
    }
}

/// The closure and the call count, passed to C as an opaque pointer.
private final class FunctionBox {
    let function: ([Double]) -> Double
    var evaluations = 0

    init(_ function: @escaping ([Double]) -> Double) {
        self.function = function
    }
}
