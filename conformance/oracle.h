/* oracle.h — the conformance suite against a real engine (tools/oracle/godot3/):
 * export the packets of one dialect, then compare the engine's verdicts with the vectors'
 * engine-exact expectations. */
#ifndef GDWIRE_CONFORMANCE_ORACLE_H
#define GDWIRE_CONFORMANCE_ORACLE_H

#include <stdio.h>

#include "conformance/vectors.h"

/* cf_oracle_export: one line per vector the engine can be asked about:
 *   id <TAB> hex <TAB> objects (0/1)
 * Vectors that set a gdwire-only limit (max_depth, max_size, heap_limit) are left out. */
int cf_oracle_export(cf_suite *s, const char *dialect, FILE *out);

/* cf_oracle_compare: read the engine's results, one line per packet:
 *   id <TAB> ok|error|crash <TAB> typeof <TAB> re-encoding hex <TAB> error class <TAB> object id
 * and check each against the vector's engine-exact expectation in `dialect`: the same
 * accept/reject decision, the same error class (the engine's Error), the same type and
 * re-encoding. Deviations `against: engine` excuse a difference; an unused one is stale.
 * Prints failures, a summary and "N passed, N failed"; returns the exit status. */
int cf_oracle_compare(cf_suite *s, const char *dialect, const char *results_path);

#endif
