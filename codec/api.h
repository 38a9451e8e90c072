/* SPDX-License-Identifier: MIT */
/* api.h — the top of the library (api.c, check.c), over the wings: the decode that gdw_check runs. */
#ifndef GDWIRE_API_H
#define GDWIRE_API_H

#include "codec/engine/engine.h"
#include "codec/wire/wire.h"

/* gdw_decode_shadowed (api.c): gdw_decode, and in compatible mode with shadow not NULL, whether strict mode
 * accepts the consumed bytes (*canonical; else *shadow says where strict mode fails) and whether
 * engine-exact mode reads them the same way (*engine_same, when not NULL: then it gives the same
 * verdict and length), found in the same walk: one pass for gdw_check instead of three. */
gdw_status gdw_decode_shadowed(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                               const gdw_allocator *alloc, gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                               gdw_error *shadow, bool *canonical, bool *engine_same);

#endif
