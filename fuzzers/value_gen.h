/* SPDX-License-Identifier: MIT */
/* value_gen.h — the structure-aware half of the fuzzers: turns any bytes into a value tree.
 *
 * The input is read as a stream of choices (which type, how many items, which interesting
 * number, which string piece); when the stream runs out every further choice is 0, so every
 * input gives a value and small edits of the input give small edits of the value. The tree is
 * written in the canonical text form (docs/text-format.md) and parsed with gdw_text_parse, so
 * every value the generator makes is one the value model can hold, and the text parser is
 * exercised on the way. gen_value_text never fails; a text it writes that does not parse is a
 * defect (the `encode` target checks it).
 *
 * gen_value_build makes the same tree a second way, with the typed gdw_build_* calls a library user
 * makes (one call per value, gdw_build_begin / gdw_build_end around containers), so a target can
 * hold the builder against the text parser. The few values those calls cannot make (an Image or
 * InputEvent, a Godot 2 "shared" container, a RID without an id, a float32 signalling-NaN
 * component) reach the builder as gdw_build_value of the value parsed from their own text; the
 * generator counts them (`opaque_values`).
 *
 * The generator records which types the tree uses (`uses`), including the element types of
 * typed containers, so a target can tell "this dialect has no such type" from a wrong refusal. */
#ifndef GDWIRE_FUZZ_VALUE_GEN_H
#define GDWIRE_FUZZ_VALUE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "codec/gdwire.h"

typedef struct gen_text {
    char *s;     /* NUL-terminated, malloc'ed */
    size_t len;
    uint8_t uses[GDW_TYPE_COUNT]; /* 1 if the tree holds a value (or an element type) of that type */
    int wide_reals;               /* the tree holds an f64 real (float, math type or packed array) */
    int int64s;                   /* the tree holds an int outside the i32 range */
    int unmapped_ids;             /* a typed container's element type is a wire id with no type (#N) */
    int noncanonical;             /* the tree holds a value no engine's encoder writes, which strict
                                     mode therefore rejects: an element type id with no type (#N,
                                     Pandemonium 5 reads it), an empty Image with non-zero fields, a
                                     string that is not UTF-8 (Godot 2 reads some), an
                                     InputEvent whose length word disagrees with its type */
    unsigned opaque_values;       /* values given to the builder whole, as above */
} gen_text;

/* gen_value_text: the value tree chosen by data[0..size) as canonical text. Returns 0 only when
 * out of memory. Free out->s with free(). */
int gen_value_text(const uint8_t *data, size_t size, gen_text *out);
/* gen_value_build: as gen_value_text, and the same tree added to b, which holds it as its one value
 * (gdw_build_finish then hands it over); out of memory in b is b's sticky error. */
int gen_value_build(const uint8_t *data, size_t size, gen_text *out, gdw_builder *b);

#endif
