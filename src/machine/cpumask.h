/*
 * cpumask.h - the cpumask API is public (policies use it): see
 * include/wakesim/cpumask.h.
 */
#include "wakesim/cpumask.h"
