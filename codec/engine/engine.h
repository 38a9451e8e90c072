/* SPDX-License-Identifier: MIT */
/* engine.h — the engine wing (codec/engine/): in engine-exact mode, the value the real engine holds
 * after decoding, computed from the decoded tree: Dictionary keys merged, typed containers
 * converted, strings settled, and the conversions the engine computes. */
#ifndef GDWIRE_ENGINE_H
#define GDWIRE_ENGINE_H

#include "codec/value/value.h"

/* gdw_engine_settle (settle.c): in engine-exact mode, turn a decoded tree into the value the
 * engine holds (typed containers converted, Dictionary keys merged) where the dialect asks, and the
 * events of the tree it returns (the digest and on_node: the decoding walk made none). opts gives
 * allow_objects, the trace, fail_if_approximate, the digest and on_node (NULL: none); consumed is
 * the value's length (the offset its events and errors name); err is filled on a failure (at the
 * first marked value for LOSSY, else at the value the pass was at: gdw_engine_path). rules_read
 * (NULL: not asked) has bit r set for each rule r of the row (gdw_rule) the pass read: each is read
 * where a value makes it matter, so that the pass makes the same tree in a row that agrees on those
 * (gdw_rules_read, gdw_dialects_read_alike). */
gdw_status gdw_engine_settle(const gdw_dialect *d, gdw_doc *doc, const gdw_decode_options *opts,
                             size_t consumed, gdw_error *err, uint64_t *rules_read);

/* The conversions the engine computes (conversions.c). real_width is the dialect's real_t (4 or
 * 8). Color(String) of UTF-8 text: false where the engine's result is not known (text that is not
 * UTF-8; a letter String::to_upper may map into ASCII). Quaternion(Basis): false where the basis is
 * not a rotation (debug builds then hold Quaternion(), release builds the formula).
 * Basis(Quaternion): false where the Quaternion's length is 0, which the engine divides by (IEEE's
 * inf and NaN, written to m, in a division C++ leaves undefined). */
float gdw_engine_hex_channel(uint32_t hex, unsigned k);
bool gdw_engine_color_from_text(const uint8_t *p, size_t n, float rgba[4]);
bool gdw_engine_basis_from_quaternion(const double q[4], unsigned real_width, double m[9]);
bool gdw_engine_quaternion_from_basis(const double m[9], unsigned real_width, double q[4]);

#endif
