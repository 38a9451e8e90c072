/* SPDX-License-Identifier: MIT */
/* errors.c — the one table of status codes, their names and messages. */
#include <string.h>

#include "codec/gdwire.h"

static const struct {
    gdw_status code;
    const char *name;
    const char *message;
} k_status[] = {
    {GDW_OK, "OK", "no error"},
    {GDW_ERR_TRUNCATED, "TRUNCATED", "input ends inside a value"},
    {GDW_ERR_UNKNOWN_TYPE, "UNKNOWN_TYPE", "type id is not in this dialect"},
    {GDW_ERR_BAD_LENGTH, "BAD_LENGTH", "byte length is negative or overflows"},
    {GDW_ERR_BAD_COUNT, "BAD_COUNT", "element count is negative or too large"},
    {GDW_ERR_BAD_UTF8, "BAD_UTF8", "string is not valid UTF-8 for this dialect"},
    {GDW_ERR_BAD_NODEPATH, "BAD_NODEPATH", "NodePath in the old string format"},
    {GDW_ERR_OBJECTS_DISALLOWED, "OBJECTS_DISALLOWED",
     "full Object on the wire and objects are not allowed"},
    {GDW_ERR_BAD_VALUE, "BAD_VALUE", "field holds a value the engine rejects"},
    {GDW_ERR_ENGINE_DEFECT, "ENGINE_DEFECT",
     "the engine rejects this input because of a known defect"},
    {GDW_ERR_BAD_FLAGS, "BAD_FLAGS", "header has flag bits the dialect never writes"},
    {GDW_ERR_NONZERO_PADDING, "NONZERO_PADDING", "padding bytes are not zero"},
    {GDW_ERR_TRAILING_BYTES, "TRAILING_BYTES", "bytes follow the value"},
    {GDW_ERR_NON_CANONICAL, "NON_CANONICAL", "form the dialect's encoder never writes"},
    {GDW_ERR_DEPTH, "DEPTH", "nesting deeper than the depth limit"},
    {GDW_ERR_TOO_LARGE, "TOO_LARGE", "input larger than the size limit"},
    {GDW_ERR_NOMEM, "NOMEM", "out of memory"},
    {GDW_ERR_UNSUPPORTED_TYPE, "UNSUPPORTED_TYPE", "the dialect has no such type"},
    {GDW_ERR_LOSSY, "LOSSY", "value does not fit the dialect exactly"},
    {GDW_ERR_INVALID_ARG, "INVALID_ARG", "invalid argument"},
    {GDW_ERR_INVALID_TREE, "INVALID_TREE", "malformed value tree"},
    {GDW_ERR_SYNTAX, "SYNTAX", "text form syntax error"},
};

#define N_STATUS (sizeof(k_status) / sizeof(k_status[0]))

const char *gdw_strerror(gdw_status code) {
    for (size_t i = 0; i < N_STATUS; i++)
        if (k_status[i].code == code) return k_status[i].message;
    return "unknown status";
}

const char *gdw_status_name(gdw_status code) {
    for (size_t i = 0; i < N_STATUS; i++)
        if (k_status[i].code == code) return k_status[i].name;
    return "UNKNOWN";
}

int gdw_status_from_name(const char *name) {
    if (!name) return -1;
    for (size_t i = 0; i < N_STATUS; i++)
        if (strcmp(k_status[i].name, name) == 0) return (int)k_status[i].code;
    return -1;
}

const char *gdw_engine_error_name(gdw_engine_error e) {
    switch (e) {
    case GDW_ENGINE_OK: return "OK";
    case GDW_ENGINE_ERR_OUT_OF_MEMORY: return "ERR_OUT_OF_MEMORY";
    case GDW_ENGINE_ERR_FILE_EOF: return "ERR_FILE_EOF";
    case GDW_ENGINE_ERR_UNAVAILABLE: return "ERR_UNAVAILABLE";
    case GDW_ENGINE_ERR_UNAUTHORIZED: return "ERR_UNAUTHORIZED";
    case GDW_ENGINE_ERR_INVALID_DATA: return "ERR_INVALID_DATA";
    case GDW_ENGINE_NONE: return "-";
    }
    return "?";
}
