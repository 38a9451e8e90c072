/* oracle.h — the conformance suite against a real engine (tools/engines/):
 * export the packets of one dialect, then compare the engine's verdicts with the vectors'
 * engine-exact expectations. */
#ifndef GDWIRE_CONFORMANCE_ORACLE_H
#define GDWIRE_CONFORMANCE_ORACLE_H

#include <stdbool.h>
#include <stdio.h>

#include "conformance/vectors.h"

/* cf_oracle_export: one line per vector the engine can be asked about:
 *   id <TAB> hex <TAB> objects (0/1)
 * Vectors that set a gdwire-only limit (max_depth, max_size, heap_limit) are left out. */
int cf_oracle_export(cf_suite *s, const char *dialect, FILE *out);

/* cf_oracle_compare: read a testee's answers (docs/testee-protocol.md), one line per packet:
 *   id <TAB> verdict <TAB> consumed <TAB> encode hex <TAB> error class <TAB> detail
 * (verdict accepted|rejected|unsupported, or hang|crash|bad-response from the runner) and check
 * each against the vector's expectation in `dialect` and `mode`: the same decision, the same
 * consumed length where the testee gives one, the same re-encoding (padding aside), and with
 * compare_errors the same error class (an engine's Error). Deviations `against: engine` (for
 * every engine, or for the one named `engine`) excuse a difference; an unused one is stale. Prints failures, a matrix by category and
 * "N passed, N failed"; returns the exit status. */
int cf_oracle_compare(cf_suite *s, const char *dialect, const char *results_path, int mode, bool compare_errors,
                      const char *engine);

#endif
