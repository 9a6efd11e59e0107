/*
 * Kubernetes label selectors, parsed and matched on this side: what
 * k8s.io/apimachinery's labels.Parse accepts (the -l of kubectl, which the
 * apiserver reads with it), for objects that come from a file rather than
 * from a server that would select them.
 *
 *	<selector>    ::= <requirement> | <requirement> "," <selector>
 *	<requirement> ::= [!] KEY [ ("in" | "notin") "(" VALUES ")"
 *	                          | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 *
 * Whitespace (space, tab, CR, LF) separates tokens anywhere; "in" and
 * "notin" are keywords only where an operator is expected (a key or a
 * value may be "in"). KEY is [PREFIX/]NAME: PREFIX a lowercase RFC 1123
 * subdomain of at most 253 bytes, NAME up to 63 bytes of [-A-Za-z0-9_.]
 * starting and ending with an alphanumeric; VALUE the same as NAME or
 * empty ("a=", "a in ()", "a in (x,)"). ">" and "<" take a decimal integer
 * (int64) and match a label whose value is one and is greater or smaller.
 * The empty selector matches everything.
 *
 * Matching is apimachinery's: "a=x", "a==x" and "a in (...)" need the
 * label; "a!=x" and "a notin (...)" also match an object WITHOUT the label
 * (as kubectl get -l does); "a" needs it, "!a" needs it absent; the
 * requirements are ANDed.
 *
 * Errors are apimachinery's messages, word for word, on one line: e.g.
 * "unable to parse requirement: found '', expected: '('" or "found ',',
 * expected: identifier after ','" (a key whose text is not valid names
 * the field "<nil>", as kubectl shows it). Where the Go text quotes a
 * value with %q, non-printable ASCII and invalid UTF-8 are escaped as Go
 * does; other Unicode is written as it is.
 *
 * Ownership: the parsed selector copies what it keeps from text; it is
 * the caller's and is freed with owners_label_selector_free(). Labels
 * handed to match are borrowed.
 */
#ifndef OWNERS_LABEL_SELECTOR_H
#define OWNERS_LABEL_SELECTOR_H

#include <stddef.h>

#include "object_meta.h"
#include "owners_error.h"

struct owners_label_selector;

/* 0 with *out set; OWNERS_EINVAL with err saying why (apimachinery's
 * words) or OWNERS_ENOMEM, and *out NULL. text NULL is the empty
 * selector. */
int owners_label_selector_parse(struct owners_label_selector **out, const char *text,
				struct owners_error *err);
/* 1 when the n labels (keys unique, as in an object) satisfy every
 * requirement of s, else 0. */
int owners_label_selector_match(const struct owners_label_selector *s,
				const struct owners_label_meta *labels, size_t n);
/* 1 when s has no requirement (it matches everything). */
int owners_label_selector_empty(const struct owners_label_selector *s);
void owners_label_selector_free(struct owners_label_selector *s);

#endif
