#include "session_across.h"
#include "session_state.h"

#include <stdlib.h>

#include "dangling.h"
#include "session_scan.h"
#include "session_warnings.h"

/* A namespaced run: the owners that read absent are looked for in every
 * namespace, only for their types (one list each, metadata only), so that
 * an owner living elsewhere reads invalid-namespace, as the GC, which sees
 * every namespace, reports it. A list that fails leaves them absent, and a
 * note among the scan's warnings says why. */
enum exit_code session_look_across_namespaces(struct session *s, const uint32_t *nodes, size_t n)
{
	struct owners_scan_options o;
	struct owners_scan_report across;
	struct session_types set = { NULL, 0, 0 };
	size_t i;
	enum exit_code rc;

	if (owners_dangling_absent_owner_types(s->graph, nodes, n, &set.types, &set.count)) {
		return error_oom();
	}
	if (!set.count)
		return 0;
	session_scan_options(s, &o);
	o.want = session_types_want;
	o.want_ctx = &set;
	rc = owners_list_source_scan(&s->lists, s->graph, &s->types, &o, &across, &s->err)
		     ? report_error(&s->err)
		     : 0;
	for (i = 0; !rc && i < across.n_failures; i++)
		if (session_note(s, "%s: owners of that type in other namespaces could not be looked "
				 "for, so references to them read absent (the garbage collector may "
				 "call them invalid-namespace)", across.failures[i].message)) {
			rc = error_oom();
		}
	owners_scan_report_clear(&across);
	free(set.types);
	return rc;
}
