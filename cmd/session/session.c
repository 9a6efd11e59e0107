#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "http.h"
#include "rest_config.h"
#include "session_snapshot.h"
#include "session_warnings.h"
#include "clock.h"

int64_t session_now(const struct session *s)
{
	if (s->snap)
		return s->now;
	return s->fixed_now ? s->fixed_now : owners_clock_wall();
}

void session_close(struct session *s)
{
	session_notes_drop(s);
	owners_graph_free(s->graph);
	owners_scan_report_clear(&s->scan);
	free(s->extra.types);
	free(s->args);
	if (s->types_loaded)
		owners_resource_table_clear(&s->types);
	for (size_t i = 0; i < s->n_retired; i++)
		owners_resource_table_clear(&s->retired[i]);
	free(s->retired);
	owners_http_client_free(s->http);
	owners_rest_config_free(s->cfg);
	session_snapshot_free(s->snap);
	owners_error_clear(&s->err);
	memset(s, 0, sizeof(*s));
}
