/*
 * Which pods use which PersistentVolumeClaims, read from a PodList (the
 * pods of one namespace, in full: only a pod's spec says which claims it
 * mounts) as a stream: of each pod only what the pvc-protection controller
 * looks at is kept (metadata.name, deletionTimestamp,
 * deletionGracePeriodSeconds, spec.nodeName, status.phase and the claim
 * each spec.volumes[] entry names); everything else is skipped uncopied.
 *
 * Pages: feed one page, finish, read the continue token, then
 * owners_pod_claims_parser_next_page() for the next one. A retried page
 * calls owners_pod_claims_parser_restart_page() first: the pods the broken
 * attempt added are dropped.
 *
 * Ownership: the parser fills a struct owners_pod_claims the caller owns
 * (owners_pod_claims_clear()); the continue token is borrowed from the
 * parser until the next page or _free().
 */
#ifndef OWNERS_POD_CLAIMS_H
#define OWNERS_POD_CLAIMS_H

#include <stddef.h>

#include "owners_error.h"

struct owners_pod_claim_use {
	char *pod;
	char *node_name;      /* "" when not scheduled */
	char *phase;          /* status.phase, "" when absent */
	int shut_down;        /* deletionTimestamp set with deletionGracePeriodSeconds 0 */
	char **claims;        /* persistentVolumeClaim.claimName, or POD-VOLUME for an ephemeral volume */
	unsigned char *ephemeral;
	size_t n_claims;
};

struct owners_pod_claims {
	struct owners_pod_claim_use *pods;
	size_t count;
	size_t cap;
};

void owners_pod_claims_clear(struct owners_pod_claims *c);

/* The claim's name among the pod's volumes: 1 when it references it. */
int owners_pod_references_claim(const struct owners_pod_claim_use *p, const char *claim);
/* Whether the pvc-protection controller counts the pod as using the claim
 * (podUsesPVCForDeletion): the pod is scheduled (spec.nodeName set) and
 * mounts the claim, an ephemeral one only while the pod is not shut down. */
int owners_pod_holds_claim(const struct owners_pod_claim_use *p, const char *claim);

struct owners_pod_claims_parser;

int owners_pod_claims_parser_new(struct owners_pod_claims_parser **out,
				 struct owners_pod_claims *into);
void owners_pod_claims_parser_free(struct owners_pod_claims_parser *p);
int owners_pod_claims_parser_feed(struct owners_pod_claims_parser *p, const char *data, size_t len,
				  struct owners_error *err);
/* A truncated document, or one without "items", is OWNERS_EPROTO. */
int owners_pod_claims_parser_finish(struct owners_pod_claims_parser *p, struct owners_error *err);
/* metadata.continue of the page: "" on the last one. */
const char *owners_pod_claims_parser_continue_token(const struct owners_pod_claims_parser *p);
/* Ready for the next page: pods collected so far stay. */
int owners_pod_claims_parser_next_page(struct owners_pod_claims_parser *p);
/* The current page again from its first byte: its pods are dropped. */
int owners_pod_claims_parser_restart_page(struct owners_pod_claims_parser *p);

#endif
