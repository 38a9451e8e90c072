/* SPDX-License-Identifier: MIT */
/* oracle.h — the conformance suite against a real engine (tools/engines/):
 * export the packets of one dialect, then compare the engine's verdicts with the vectors'
 * engine-exact expectations. */
#ifndef GDWIRE_CONFORMANCE_ORACLE_H
#define GDWIRE_CONFORMANCE_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
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

/* Recorded engine evidence: conformance/evidence/ENGINE.tsv, one file per engine build, written by
 * tools/engines/record-evidence from a live oracle run. First line
 *   # gdwire-evidence/1 <TAB> engine <TAB> its version string <TAB> dialect <TAB> mode
 * then one answer per vector: id <TAB> cf_packet_hash (16 hex digits) <TAB> the five answer
 * fields of cf_oracle_compare. cf_evidence_load judges every file in DIR as the live oracle does
 * (deviations `against: engine` excuse a difference) and marks each vector's expectation the
 * engine confirmed with CF_EV_ENGINE. A disagreement, an answer for bytes that changed, or a
 * vector without an answer is a failure (re-record). Returns the number of failures. */
uint64_t cf_packet_hash(const cf_vector *v);
long cf_evidence_load(cf_suite *s, const char *dir);
/* cf_evidence_write: a testee's answers (as cf_oracle_compare reads them) as an evidence file. */
int cf_evidence_write(cf_suite *s, const char *dialect, int mode, const char *engine, const char *version, const char *results_path,
                      const char *out_path);

#endif
