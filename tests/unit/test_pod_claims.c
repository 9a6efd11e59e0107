/* Which pods use which claims, read from a PodList as a stream: only the
 * fields the pvc-protection controller looks at, whatever the chunking,
 * across pages and retried pages. */
#include <stdlib.h>
#include <string.h>

#include "pod_claims.h"
#include "tap.h"

static const char page1[] =
	"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"9\","
	"\"continue\":\"tok/1\"},\"items\":["
	/* scheduled, mounts data and an ephemeral volume; fields in any order */
	"{\"spec\":{\"volumes\":[{\"name\":\"cfg\",\"configMap\":{\"name\":\"x\"}},"
	"{\"persistentVolumeClaim\":{\"claimName\":\"data\",\"readOnly\":true},\"name\":\"d\"},"
	"{\"name\":\"scratch\",\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{\"accessModes\":[\"ReadWriteOnce\"]}}}}],"
	"\"containers\":[{\"name\":\"c\",\"volumeMounts\":[{\"name\":\"d\",\"mountPath\":\"/d\"}]}],"
	"\"nodeName\":\"node-1\"},"
	"\"metadata\":{\"name\":\"user\",\"labels\":{\"name\":\"not-the-pod\"},\"annotations\":{\"nodeName\":\"x\"}},"
	"\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}},"
	/* no claims at all: not kept */
	"{\"metadata\":{\"name\":\"plain\"},\"spec\":{\"nodeName\":\"node-1\",\"volumes\":[{\"name\":\"e\",\"emptyDir\":{}}]}},"
	/* not scheduled */
	"{\"metadata\":{\"name\":\"pending\"},\"spec\":{\"volumes\":[{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]},"
	"\"status\":{\"phase\":\"Pending\"}},"
	/* shut down: deletionTimestamp with grace period 0 */
	"{\"metadata\":{\"name\":\"dying\",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\",\"deletionGracePeriodSeconds\":0},"
	"\"spec\":{\"nodeName\":\"node-2\",\"volumes\":[{\"name\":\"v\",\"ephemeral\":{}},"
	"{\"name\":\"w\",\"persistentVolumeClaim\":{\"claimName\":\"logs\"}}]}}"
	"]}";

static const char page2[] =
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"late\"},"
	"\"spec\":{\"nodeName\":\"n\",\"volumes\":[{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]}}]}";

static int feed_split(struct owners_pod_claims_parser *p, const char *doc, size_t len, size_t at)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_pod_claims_parser_feed(p, doc, at, &err);

	if (!rc)
		rc = owners_pod_claims_parser_feed(p, doc + at, len - at, &err);
	if (!rc)
		rc = owners_pod_claims_parser_finish(p, &err);
	if (rc)
		printf("# %s\n", owners_error_message(&err));
	owners_error_clear(&err);
	return rc;
}

static const struct owners_pod_claim_use *pod(const struct owners_pod_claims *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->count; i++)
		if (!strcmp(c->pods[i].pod, name))
			return &c->pods[i];
	return NULL;
}

int main(void)
{
	struct owners_pod_claims c;
	struct owners_pod_claims_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	const struct owners_pod_claim_use *u;
	const char *status = "{\"kind\":\"Status\",\"status\":\"Failure\"}";
	size_t at, bad = 0;

	memset(&c, 0, sizeof(c));
	ok(owners_pod_claims_parser_new(&p, &c) == 0, "parser created");
	ok(feed_split(p, page1, sizeof(page1) - 1, 100) == 0, "a page parses");
	is_int(c.count, 3, "pods mounting claims are kept, the others are not");
	is_str(owners_pod_claims_parser_continue_token(p), "tok/1", "the continue token");
	u = pod(&c, "user");
	ok(u != NULL, "the pod is named by metadata.name (not a label called name)");
	is_str(u ? u->node_name : NULL, "node-1", "  spec.nodeName (not an annotation)");
	is_str(u ? u->phase : NULL, "Running", "  status.phase");
	is_int(u ? u->n_claims : 0, 2, "  two claims: the persistentVolumeClaim and the ephemeral one");
	is_str(u && u->n_claims > 1 ? u->claims[1] : NULL, "user-scratch",
	       "  an ephemeral volume's claim is POD-VOLUME");
	ok(u && owners_pod_references_claim(u, "data") && owners_pod_holds_claim(u, "data"),
	   "  a scheduled pod holds its claim");
	ok(u && owners_pod_holds_claim(u, "user-scratch"), "  and its ephemeral claim");
	ok(u && !owners_pod_references_claim(u, "x"), "  a configMap volume is not a claim");
	u = pod(&c, "pending");
	ok(u && owners_pod_references_claim(u, "data") && !owners_pod_holds_claim(u, "data"),
	   "an unscheduled pod references the claim but does not hold it");
	u = pod(&c, "dying");
	ok(u && u->shut_down, "a pod deleted with grace period 0 is shut down");
	ok(u && !owners_pod_holds_claim(u, "dying-v"), "  its ephemeral claim is not held");
	ok(u && owners_pod_holds_claim(u, "logs"), "  its persistentVolumeClaim still is (as the controller decides)");

	ok(owners_pod_claims_parser_next_page(p) == 0, "next page");
	ok(owners_pod_claims_parser_feed(p, page2, 40, &err) == 0, "half of page 2");
	ok(owners_pod_claims_parser_restart_page(p) == 0, "the page is retried from its first byte");
	ok(feed_split(p, page2, sizeof(page2) - 1, 7) == 0, "page 2 parses");
	is_int(c.count, 4, "pods of both pages, none twice");
	is_str(owners_pod_claims_parser_continue_token(p), "", "last page: no continue token");
	ok(pod(&c, "late") != NULL, "the pod of page 2");

	/* every split point gives the same result */
	for (at = 0; at < sizeof(page1) - 1; at++) {
		owners_pod_claims_clear(&c);
		owners_pod_claims_parser_free(p);
		p = NULL;
		if (owners_pod_claims_parser_new(&p, &c) || feed_split(p, page1, sizeof(page1) - 1, at) ||
		    c.count != 3 || !pod(&c, "user") || pod(&c, "user")->n_claims != 2)
			bad++;
	}
	is_int(bad, 0, "every split point of the body gives the same pods");

	owners_pod_claims_clear(&c);
	owners_pod_claims_parser_free(p);
	ok(owners_pod_claims_parser_new(&p, &c) == 0, "parser created");
	ok(feed_split(p, status, strlen(status), 3) == OWNERS_EPROTO,
	   "a document without items is an error, not an empty list");
	owners_pod_claims_parser_free(p);
	ok(owners_pod_claims_parser_new(&p, &c) == 0, "parser created");
	ok(feed_split(p, "{\"items\":[{\"metadata\":", 22, 5) == OWNERS_EPROTO, "a truncated body is an error");
	owners_pod_claims_parser_free(p);
	owners_pod_claims_clear(&c);
	owners_error_clear(&err);
	return tap_done();
}
