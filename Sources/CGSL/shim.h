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
/// GSL's MT19937 state (gsl/rng/mt.c: `mt_state_t`): 624 words of 32 bits held in `unsigned long`, and the index
/// of the next word to temper (624 means "twist first").
typedef struct {
    unsigned long mt[624];
    int mti;
} abrsim_mt19937_state;

/// Sets the whole MT19937 state of `r` to `words` (624 values of 32 bits), so a seed wider than GSL's 32-bit
/// `gsl_rng_set` reaches the generator. Returns 0, or -1 when `r` is not an MT19937 of the expected layout.
static inline int abrsim_gsl_mt19937_set_state(gsl_rng *r, const unsigned int *words) {
    if (r->type != gsl_rng_mt19937 || gsl_rng_size(r) != sizeof(abrsim_mt19937_state)) return -1;
    abrsim_mt19937_state *state = (abrsim_mt19937_state *)gsl_rng_state(r);
    for (int i = 0; i < 624; i++) state->mt[i] = words[i] & 0xffffffffUL;
    state->mti = 624;
    return 0;
}
/// Turns GSL's default abort-on-error handler off, so errors come back as status codes.
static inline void abrsim_gsl_disable_abort(void) { gsl_set_error_handler_off(); }

#endif
