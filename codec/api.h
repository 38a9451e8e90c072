/* SPDX-License-Identifier: MIT */
/* api.h — the top of the library (api.c, check.c), over the wings: the decode that gdw_check runs.
 * */
#ifndef GDWIRE_API_H
#define GDWIRE_API_H

#include "codec/engine/engine.h"
#include "codec/wire/wire.h"

/* gdw_decode_shadowed (api.c): gdw_decode, and in compatible mode with a report, what the same
 * walk finds out for gdw_check (gdw_shadow_report, wire/wire.h). */
gdw_status gdw_decode_shadowed(const gdw_dialect *d, const uint8_t *buf, size_t len,
                               const gdw_decode_options *opts, const gdw_allocator *alloc,
                               gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                               gdw_shadow_report *report);

#endif
