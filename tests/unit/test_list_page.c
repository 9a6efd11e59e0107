/*
 * The paging every list shares (lib/api/list_page.c): how big each page
 * is, and the path that asks for one. (owners_list_page_read_all(), which reads
 * pages from a server, is run by the snapshot and why suites against a
 * real control plane.)
 */
#include <string.h>

#include "fake_types.h"
#include "list_page.h"
#include "tap.h"

/* Page sizes: as given on every page, else 500 growing fourfold to 5000. */
static void page_limits(void)
{
	ok(owners_list_page_limit(0, 0) == 500, "pages: the first page asks for 500, as kubectl");
	ok(owners_list_page_limit(0, 1) == 2000, "pages: the second for 2000");
	ok(owners_list_page_limit(0, 2) == 5000 && owners_list_page_limit(0, 100) == 5000,
	   "pages: then 5000, never more");
	ok(owners_list_page_receive_buffer(NULL) == 0 && owners_list_page_receive_buffer("") == 0,
	   "a list's first page: the client's default buffer, which keeps most answers whole");
	ok(owners_list_page_receive_buffer("tok") == 64 * 1024,
	   "a later page: 64 KiB held at a time");
	ok(owners_list_page_limit(0, (size_t)-1) == 5000,
	   "pages: no overflow however many pages came before");
	ok(owners_list_page_limit(250, 0) == 250 && owners_list_page_limit(250, 7) == 250,
	   "pages: a size given (--chunk-size) is every page's");
}

static void check(const struct owners_list_page *p, const char *want, const char *what)
{
	struct owners_buf path = OWNERS_BUF_INIT;

	ok(!owners_list_page_path(&path, p), "%s: made", what);
	is_str(path.ptr, want, "%s", what);
	owners_buf_clear(&path);
}

static void paths(const struct owners_resource_table *t)
{
	const struct owners_resource *deploy = owners_resource_by_gvk(t, "apps/v1", "Deployment");
	const struct owners_resource *events = owners_resource_by_gvk(t, "v1", "Event");

	check(&(const struct owners_list_page){ events, NULL, 500, NULL, NULL },
	      "/api/v1/events?limit=500", "a first page everywhere");
	check(&(const struct owners_list_page){ events, "", 500, NULL, "" },
	      "/api/v1/events?limit=500", "an empty namespace and token: the same");
	check(&(const struct owners_list_page){ deploy, "shop", 2000, "app in (web,db)",
						"eyJ2Ijoi+/=" },
	      "/apis/apps/v1/namespaces/shop/"
	      "deployments?limit=2000&labelSelector=app%20in%20%28web%2Cdb%29"
	      "&continue=eyJ2Ijoi%2B%2F%3D",
	      "a later page of a namespace, with a selector: each value escaped");
}

int main(void)
{
	struct owners_resource_table t;

	memset(&t, 0, sizeof(t));
	fake_type_add(&t, &(struct fake_type){ "", "v1", "events", "event", "Event", "ev", 1, 1 });
	fake_type_add(&t, &(struct fake_type){ "apps", "v1", "deployments", "deployment",
					       "Deployment", "deploy", 1, 1 });
	page_limits();
	paths(&t);
	owners_resource_table_clear(&t);
	return tap_done();
}
