/* SPDX-License-Identifier: MIT */
/* version.c — the library's own version (gdwire.h: GDW_VERSION_*). */
#include "codec/gdwire.h"

const char *gdw_version(void) { return GDW_VERSION; }
unsigned gdw_version_number(void) { return GDW_VERSION_NUMBER; }
