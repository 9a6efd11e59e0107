/*
 * Which Pods of its namespace an object selects, read as its own API
 * reads its selector, since they differ on what an empty one means:
 *
 *   Service            spec.selector, a map: empty or absent selects no
 *                      Pod (the Service's endpoints are then managed by
 *                      hand, as EndpointSlices without a selector)
 *   NetworkPolicy      spec.podSelector, a LabelSelector: {} selects
 *                      every Pod of the namespace
 *   PodDisruptionBudget (policy/v1) spec.selector: {} selects every Pod of
 *                      the namespace, an absent one none
 *
 * A LabelSelector's matchLabels and matchExpressions (In, NotIn, Exists,
 * DoesNotExist) are ANDed, matched as lib/codec/label_selector.h matches
 * (apimachinery's rules). A selector the API would refuse (an operator
 * it does not know, a value that is no label value) selects no Pod.
 *
 * Ownership: the selector owns its parsed form
 * (owners_pod_selector_clear()); the object read is borrowed.
 */
#ifndef OWNERS_POD_SELECTOR_H
#define OWNERS_POD_SELECTOR_H

#include <stddef.h>

#include "json.h"
#include "label_selector.h"
#include "object_meta.h"

enum owners_pod_selector_scope {
	OWNERS_POD_SELECTOR_NONE,     /* selects no Pod */
	OWNERS_POD_SELECTOR_ALL,      /* every Pod of the namespace */
	OWNERS_POD_SELECTOR_MATCHING, /* the Pods whose labels match */
};

struct owners_pod_selector {
	enum owners_pod_selector_scope scope;
	struct owners_label_selector *match; /* MATCHING */
	char *text;                          /* MATCHING: the selector as -l writes it */
	const char *path;                    /* the field it comes from (static) */
};

/* Whether objects of group/kind select Pods so. */
int owners_pod_selector_kind(const char *group, const char *kind);
/* Reads object's selector (of group/kind, read whole). A kind that does
 * not select Pods selects none. 0, or OWNERS_ENOMEM. */
int owners_pod_selector_read(struct owners_pod_selector *out,
			     const struct owners_json_value *object, const char *group,
			     const char *kind);
/* A selector of group/kind read back from its scope and text (as a
 * snapshot records it); a text that does not parse selects none. 0, or
 * OWNERS_ENOMEM. */
int owners_pod_selector_from_text(struct owners_pod_selector *out, const char *group,
				  const char *kind, enum owners_pod_selector_scope scope,
				  const char *text);
/* Whether s selects a Pod with these n labels (of its namespace). */
int owners_pod_selector_matches(const struct owners_pod_selector *s,
				const struct owners_label_meta *labels, size_t n);
void owners_pod_selector_clear(struct owners_pod_selector *s);

#endif
