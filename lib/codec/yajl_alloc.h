#ifndef OWNERS_CODEC_YAJL_ALLOC_H
#define OWNERS_CODEC_YAJL_ALLOC_H

#include <yajl/yajl_common.h>

/* yajl's allocations through the project's allocator; a failed one ends
 * the program through owners_oom_fatal() (yajl would not check it).
 * Not const: yajl_alloc() and yajl_gen_alloc() take a mutable pointer. */
extern yajl_alloc_funcs owners_yajl_alloc_funcs;

#endif
