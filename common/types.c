/*
 * types.c - the element types' table (wb_types, from types.def), their
 * names, and a check at compile time that each C type has the size the
 * list gives it. C11, no CUDA.
 */
#include "types.h"

#include <stdio.h>
#include <string.h>

const wb_type_traits wb_types[WB_NTYPES] = {
#define WB_TYPE(e, T, name, bytes, V, exact_max, step_bits, roundoff_bits) \
    {name, bytes, exact_max, step_bits, roundoff_bits},
#include "types.def"
#undef WB_TYPE
};
#define WB_TYPE(e, T, name, bytes, ...) _Static_assert(sizeof(T) == (bytes), "types.def: " name "'s bytes");
#include "types.def"
#undef WB_TYPE

const char *wb_type_name(wb_type t)
{
    return wb_types[t].name;
}

void wb_type_names(unsigned types, char *buf, size_t len)
{
    int t, count = 0, seen = 0;
    if (!types)
        types = WB_TYPE_BIT(WB_INT);
    for (t = 0; t < WB_NTYPES; ++t)
        count += (types & WB_TYPE_BIT(t)) != 0;
    buf[0] = '\0';
    for (t = 0; t < WB_NTYPES; ++t)
        if (types & WB_TYPE_BIT(t)) {
            size_t used = strlen(buf);
            ++seen;
            snprintf(buf + used, len - used, "%s%s", seen == 1 ? "" : seen == count ? " or " : ", ",
                     wb_type_name((wb_type)t));
        }
}
