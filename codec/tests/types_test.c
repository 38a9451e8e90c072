/* SPDX-License-Identifier: MIT */
/* types_test.c — the type table (codec/types.c) lists the types in gdw_type order, one row each:
 * the table is positional so that a C++ compiler accepts it, and this is what keeps it right. */
#include "codec/api.h"
#include "codec/tests/testing.h"

int main(void) {
    for (unsigned t = 0; t < GDW_TYPE_COUNT; t++) {
        const gdw_type_info *ti = &gdw_types[t];
        CHECK(ti->type == t, "row %u holds type %u (%s): the table is out of gdw_type order", t,
              ti->type, ti->name ? ti->name : "(none)");
        CHECK(ti->name && ti->name[0], "row %u has no name", t);
        for (unsigned u = 0; u < t; u++)
            CHECK(!ti->name || !gdw_types[u].name || strcmp(ti->name, gdw_types[u].name) != 0,
                  "rows %u and %u share the name %s", u, t, ti->name);
    }
    /* spot checks against the engines' own names (core/variant/variant.cpp get_type_name) */
    CHECK(strcmp(gdw_types[GDW_VECTOR2I].name, "Vector2i") == 0, "Vector2i");
    CHECK(strcmp(gdw_types[GDW_PACKED_COLOR_ARRAY].name, "PackedColorArray") == 0,
          "PackedColorArray");
    CHECK(gdw_types[GDW_TRANSFORM3D].ncomp == 12 && gdw_types[GDW_PROJECTION].ncomp == 16,
          "component counts");
    return t_finish();
}
