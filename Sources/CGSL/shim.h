#ifndef ABRSIM_CGSL_SHIM_H
#define ABRSIM_CGSL_SHIM_H

// GSL for ABRSim: random numbers, distributions, statistics, minimisation.
// GSL's generator types are global variables; Swift 6 treats imported globals as
// shared mutable state, so they are exposed here as functions instead.

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

/// Mersenne Twister MT19937, the generator ABRSim seeds for every random draw.
static inline const gsl_rng_type *abrsim_gsl_rng_mt19937(void) { return gsl_rng_mt19937; }
/// RANLUX (luxury 389), a slower generator with proven decorrelation.
static inline const gsl_rng_type *abrsim_gsl_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }
/// Nelder-Mead simplex (second version) for gsl_multimin.
static inline const gsl_multimin_fminimizer_type *abrsim_gsl_multimin_nmsimplex2(void) {
    return gsl_multimin_fminimizer_nmsimplex2;
}
/// Turns GSL's default abort-on-error handler off, so errors come back as status codes.
static inline void abrsim_gsl_disable_abort(void) { gsl_set_error_handler_off(); }

#endif
