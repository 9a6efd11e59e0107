/*
 * The owner graph: every scanned object is a node keyed by UID; each
 * ownerReference is an edge from the dependent to its owner. A reference
 * whose UID was not scanned points to a virtual node built from the
 * reference itself, so dangling references are visible in the graph.
 *
 * The graph also remembers which types were listed, where, and which
 * failed, so a missing owner can be told apart from one we could not see
 * (unknown, never assumed absent).
 *
 * Nodes are addressed by index (uint32_t) so the node array can grow.
 *
 * Ownership: the graph owns all nodes and strings (in its arena); the
 * resource pointers are borrowed from the resource table given to
 * owners_graph_new(), which must outlive the graph.
 */
#ifndef OWNERS_GRAPH_H
#define OWNERS_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "node_table.h"
#include "owners_error.h"
#include "object_meta.h"
#include "resource.h"
#include "uid.h"

#define OWNERS_NO_NODE UINT32_MAX

struct owners_node_place;

struct owners_ref {
	/* the apiVersion and kind it names (interned): a place with no
	 * namespace and no resource, since a reference says neither, shared
	 * by every reference that names the same */
	const struct owners_node_place *type;
	const char *name;
	/* The node of the UID it names, which is the reference's UID
	 * (OWNERS_REF_UID()): every UID a reference names has a node, a
	 * virtual one while no object of it was read, from the moment the
	 * reference is added. A reference built by hand (read again from the
	 * server) may name a UID the graph does not hold: OWNERS_NO_NODE. */
	uint32_t owner;
	unsigned controller : 1;
	unsigned block_owner_deletion : 1;
	/* the field is present (false when present and not set above): a
	 * reference written back keeps "controller": false as it was */
	unsigned controller_set : 1;
	unsigned block_owner_deletion_set : 1;
};

/* What a node is and where it is: its type and namespace. Every node
 * of one type in one namespace points at one shared record (there are
 * as many as types times namespaces, not objects), so a node pays one
 * pointer for all four. */
struct owners_node_place {
	const char *api_version;  /* interned; the reference's for virtual nodes */
	const char *kind;         /* interned */
	const char *namespace_;   /* interned; "" when cluster-scoped */
	const struct owners_resource *resource; /* NULL when virtual and unserved */
};

/* What few objects carry: finalizers, a deletionTimestamp, and labels
 * when the scan keeps them. Nodes with none share one empty record. */
struct owners_node_extras {
	const char **finalizers;  /* interned */
	uint32_t n_finalizers;
	/* deletionTimestamp, unix seconds (to 2106), 0 when not in deletion
	 * (1 when its time could not be read) */
	uint32_t deleted;
	uint32_t n_labels;
	/* metadata.labels, key then value (2 * n_labels strings), when the
	 * scan kept them (owners_scan_options.keep_labels); else none */
	const char **labels;
};

/* One object (or one only referred to). Kept small (72 bytes): a graph
 * of ten million objects holds ten million of these. */
struct owners_node {
	/* its UID (uid.h; its text: OWNERS_NODE_UID()), the graph's key */
	union owners_uid uid_key;
	const char *name;
	const struct owners_node_place *place;   /* never NULL */
	const struct owners_node_extras *extras; /* never NULL */
	/* its resourceVersion: a decimal number of up to 19 digits (what
	 * etcd's revisions are) kept as that number (rv_is_number), any
	 * other text by pointer; OWNERS_NODE_RV() gives the text */
	union {
		uint64_t number;
		const char *text; /* NULL: "" */
	} rv;
	struct owners_ref *refs;  /* this object's ownerReferences */
	/* the nodes whose references point here: n_dependents of the
	 * graph's edges from this one (owners_graph_dependents()) */
	uint32_t first_dependent;
	/* unix seconds, 0 unknown (32 bits hold times to 2106) */
	uint32_t created;
	unsigned n_refs : 28;
	unsigned uid_is_text : 1; /* uid_key is a pointer to text */
	unsigned rv_is_number : 1;
	unsigned virtual_ : 1;    /* never observed: only referenced */
	/* virtual, and what it says comes from a reference to it (not from
	 * an object seen once and gone since): owners_graph_link() decides
	 * again which reference that is (see it) */
	unsigned from_reference : 1;
	uint32_t n_dependents;
};

/* A node's place and extras when it has none of its own: nodes built by
 * hand (an absent row) start from these. */
extern const struct owners_node_place owners_graph_no_place;
extern const struct owners_node_extras owners_graph_no_extras;

/* A node's UID as text: in buf (OWNERS_UID_TEXT_SIZE bytes) when it is
 * kept as bytes, else the graph's own copy. */
const char *owners_graph_node_uid(const struct owners_node *n, char *buf);
/* The same with a buffer of the enclosing block's: the text lives as
 * long as that block (a compound literal), so keep a copy to hold it
 * longer. A reference's UID is its owner node's. */
#define OWNERS_NODE_UID(n)   owners_graph_node_uid((n), (char[OWNERS_UID_TEXT_SIZE]){ 0 })
#define OWNERS_REF_UID(g, r) OWNERS_NODE_UID(&(g)->nodes[(r)->owner])
/* A node built by hand, not in a graph (a row's stand-in), named by
 * text it borrows. */
void owners_graph_node_borrow_uid(struct owners_node *n, const char *text);

/* A node's resourceVersion as text: in buf (OWNERS_NODE_RV_SIZE bytes)
 * when it is kept as a number, else the graph's own text ("" when it
 * has none). OWNERS_NODE_RV() as OWNERS_NODE_UID(). */
#define OWNERS_NODE_RV_SIZE 21
const char *owners_graph_node_rv(const struct owners_node *n, char *buf);
#define OWNERS_NODE_RV(n) owners_graph_node_rv((n), (char[OWNERS_NODE_RV_SIZE]){ 0 })
/* Keeps text as n's resourceVersion: as a number when it is one, else
 * as text copied into arena a, or borrowed when a is NULL. 0, or
 * OWNERS_ENOMEM. */
int owners_graph_node_set_rv(struct owners_node *n, struct owners_arena *a, const char *text);

/* Where a type was listed: namespace NULL means all namespaces (or a
 * cluster-scoped type). rc is 0 or the OWNERS_E* the list failed with. */
struct owners_listing {
	const struct owners_resource *resource;
	const char *namespace_;
	int rc;
	char *message;
};

/* The graph's places, each once: open addressing, power-of-two size. */
struct owners_node_places {
	const struct owners_node_place **slots;
	size_t count, cap;
	/* the last found for an object and for a reference: objects come a
	 * type and a namespace at a time, and name one kind of owner */
	const struct owners_node_place *last, *last_ref;
};

struct owners_graph {
	struct owners_arena arena;
	struct owners_node_places places; /* in the arena, as their strings */
	const struct owners_resource_table *types;
	struct owners_node *nodes;
	uint32_t count;
	size_t cap;
	struct owners_node_table by_uid;
	struct owners_node_table by_name; /* built on demand: (resource, namespace, name) */
	/* the name index holds two objects of one name (a dump, or a watch
	 * that caught an object and its successor): a reference is then
	 * resolved through the index alone (owners_graph_resolve_ref()) */
	int name_dups;
	/* UIDs told ahead (owners_graph_prefetch_uid()) with their packed
	 * key and hash, kept for the lookups they announce: found by the
	 * text's address, which rises through a batch */
	struct owners_graph_ahead *ahead;
	size_t n_ahead, cap_ahead, next_ahead;
	struct owners_listing *listings;
	size_t n_listings;
	size_t cap_listings;
	uint32_t *edges;         /* every node's dependents, one after the other */
	int linked;
	/* Objects added, updated or forgotten so far: a watcher compares it
	 * with the node count to know when the arena holds more stale
	 * strings than live ones (owners_graph_compact()). */
	size_t edits;
	/* What the last object added interned, slot by field (objects come
	 * a type and a namespace at a time): compared before hashing.
	 * Pointers into the arena, forgotten when it is replaced. */
	const char *memo[5];
};

int owners_graph_new(struct owners_graph **out, const struct owners_resource_table *types);
/* Node n's dependents (n->n_dependents of them), once linked. */
static inline const uint32_t *owners_graph_dependents(const struct owners_graph *g,
						      const struct owners_node *n)
{
	return g->edges ? g->edges + n->first_dependent : NULL;
}
void owners_graph_free(struct owners_graph *g);

/* Adds one scanned object of type r (copying what the graph keeps). An
 * object already present by UID is updated (a virtual node becomes real).
 * One object listed twice (two groups serve it) is kept as the type first
 * by group, version and resource has it, whichever came first. */
int owners_graph_add(struct owners_graph *g, const struct owners_resource *r,
		     const struct owners_object_meta *m);
/* As an event says: the object as m has it now, whatever the graph held
 * of it (owners_graph_add() keeps one of two by its type). */
int owners_graph_update(struct owners_graph *g, const struct owners_resource *r,
			const struct owners_object_meta *m);
/* The object of this UID is gone: its node turns virtual (what refers to
 * it still names it, as the GC's graph keeps a deleted owner it has
 * dependents for). 1 when an observed node was forgotten, else 0. Call
 * owners_graph_link() before reading edges again. */
int owners_graph_forget(struct owners_graph *g, const char *uid);
/* Copies what the graph holds into a new arena and frees the old one with
 * every string updates left behind (a watch adds a copy per event). Node
 * indexes, edges and the UID index stay as they are; pointers into the
 * old strings (a tree's `via`) do not: build such things again. 0, or
 * OWNERS_ENOMEM with the graph unchanged. */
int owners_graph_compact(struct owners_graph *g);
/* Records that r was listed in namespace ns (NULL = everywhere), with its
 * outcome; message is copied. */
int owners_graph_note_listing(struct owners_graph *g, const struct owners_resource *r,
			      const char *ns, int rc, const char *message);
/* Resolves every reference to a node (creating virtual nodes) and fills
 * the dependents lists, each in the node order (owners_graph_node_order()),
 * whatever order the objects were added in. Call after the last add; may
 * be called again.
 *
 * An owner nobody has seen is known only from the references to it, which
 * may disagree (two dependents name one UID with other kinds, names or
 * namespaces). Its apiVersion, kind and name are those of the first
 * reference to it of the dependent that comes first: a namespaced
 * dependent before a cluster-scoped one (only a namespaced one can say
 * where a namespaced owner would be), then by kind, namespace, name and
 * UID. Its namespace is that dependent's when its kind is namespaced,
 * else none. */
int owners_graph_link(struct owners_graph *g);

/* Asks for the UID index's slot of uid ahead of adding its object or a
 * reference to it: a list source that holds many objects at once tells
 * them all first, and their slots come from memory together. */
void owners_graph_prefetch_uid(struct owners_graph *g, const char *uid);
/* Forgets what owners_graph_prefetch_uid() was told (its text is about
 * to go: the batch's objects are added). */
void owners_graph_prefetch_begin(struct owners_graph *g);

uint32_t owners_graph_find_uid(const struct owners_graph *g, const char *uid);
/* Some of a graph's nodes, by index (borrowed): the rows a tree prints,
 * the objects a command reads more about. */
struct owners_node_list {
	const uint32_t *nodes;
	size_t n;
};

/* How a listing applies the one node order (owners_graph_node_order()):
 * flags, 0 for the order itself. Each is the order a listing has always
 * shown, kept so that no listing's output changes. */
enum owners_node_order {
	/* kind before namespace: a tree's siblings, one group per kind under
	 * an owner (where the two differ: a cluster-scoped owner's
	 * dependents in several namespaces) */
	OWNERS_NODE_ORDER_KIND_FIRST = 1 << 0,
	/* the apiVersion between kind and name: dangling's findings, the
	 * objects of one version of a kind together */
	OWNERS_NODE_ORDER_VERSION = 1 << 1,
};

/* The one order of nodes by what they are, used by every listing:
 * namespace, kind, name (how changes it, see enum owners_node_order),
 * then the apiVersion and the UID, so that it is total: 0 only for a node
 * and itself (UIDs are the graph's keys). Negative or positive as node a
 * sorts before or after node b. Whatever order the lists came in, a sort
 * by it gives one result. */
int owners_graph_node_order(const struct owners_graph *g, uint32_t a, uint32_t b, unsigned how);
/* Sorts n node indexes in the node order (owners_graph_node_cmp()): a
 * list made by walking the graph's array, which is in the order the
 * objects were listed, said in an order of the cluster's state. */
void owners_graph_sort_nodes(const struct owners_graph *g, uint32_t *nodes, size_t n);
/* The order itself: owners_graph_node_order(g, a, b, 0). */
int owners_graph_node_cmp(const struct owners_graph *g, uint32_t a, uint32_t b);
/* "deployment.apps/web" as kubectl -o name writes it (appended to out). */
int owners_graph_node_name(struct owners_buf *out, const struct owners_node *n);
/* Its type alone: "deployment.apps". */
int owners_graph_node_type(struct owners_buf *out, const struct owners_node *n);
/* Kind/name, as a table's NAME shows an object; with wide
 * Kind.group/name (GroupKind's form; the core group's kinds stay
 * Kind/name), so two kinds of one name in two groups differ. 0, or
 * OWNERS_ENOMEM. */
int owners_graph_node_shown_name(struct owners_buf *out, const struct owners_node *n, int wide);
/* The node's API group, as its apiVersion says it ("" for the core
 * group), into out (size bytes; cut short, never unterminated). */
void owners_graph_node_group(const struct owners_node *n, char *out, size_t size);
/* Whether node n is an object the scan saw of the core group's resource
 * ("namespaces", "persistentvolumeclaims"). */
int owners_graph_node_is_core(const struct owners_node *n, const char *resource);
/* The value of label key on node n, or NULL when it has none (or the
 * scan did not keep labels). */
const char *owners_graph_node_label(const struct owners_node *n, const char *key);
/* The column kubectl's -L KEY adds: the key's last '/' segment upper-cased
 * ("app.kubernetes.io/name": NAME); appended to out. */
int owners_graph_label_title(struct owners_buf *out, const char *key);
/* kubectl's LABELS column: "k=v,k=v" sorted by key, "<none>" when there
 * are none; appended to out. */
int owners_graph_node_labels_text(struct owners_buf *out, const struct owners_node *n);
/* Whether node n holds finalizer f (metadata.finalizers). */
int owners_graph_node_has_finalizer(const struct owners_node *n, const char *f);

/* Appends a node index to a growable array (*v, *n used, *cap allocated,
 * grown with OWNERS_GROW); the caller frees *v. */
int owners_graph_node_list_push(uint32_t **v, size_t *n, size_t *cap, uint32_t node);
/* The observed object of type r named name in namespace ns ("" for cluster
 * scope): *found is its node, or OWNERS_NO_NODE when there is none. Fails
 * (OWNERS_ENOMEM) only when the name index cannot be built, and then says
 * nothing: "cannot tell" must never read as "absent". */
/* The index owners_graph_find_name() builds when first asked and keeps,
 * given back (4 bytes a slot, two slots an object): a command done
 * looking up by name frees it before it needs memory for something
 * else. The next lookup builds it again. */
void owners_graph_release_name_index(struct owners_graph *g);
int owners_graph_find_name(struct owners_graph *g, const struct owners_resource *r, const char *ns,
			   const char *name, uint32_t *found);

/* Listing state of type r in namespace ns ("" for cluster scope). */
enum owners_listing_state {
	OWNERS_LISTING_OK,        /* listed: what is not in the graph does not exist */
	OWNERS_LISTING_FAILED,    /* tried and failed (forbidden, error) */
	OWNERS_LISTING_NOT_LISTED /* outside the scan's scope */
};
enum owners_listing_state owners_graph_listing_state(const struct owners_graph *g,
						     const struct owners_resource *r,
						     const char *ns,
						     const struct owners_listing **which);

/* How one ownerReference resolves, decided the way the garbage collector
 * decides (isDangling()): the apiVersion and kind are mapped as its REST
 * mapper maps them (owners_resource_map_ref()), the owner is looked up by
 * name, in the dependent's namespace when its kind is namespaced, and
 * compared by UID. The UID a reference carries links the graph (the GC's
 * graph is keyed by UID too), but it never decides the class. */
enum owners_ref_class {
	OWNERS_REF_RESOLVED,
	OWNERS_REF_ABSENT,            /* no object of that name where it must be */
	OWNERS_REF_UID_MISMATCH,      /* same kind and name, another UID */
	OWNERS_REF_INVALID_NAMESPACE, /* owner only elsewhere, or namespaced owner of a cluster-scoped object */
	OWNERS_REF_UNRESOLVABLE,      /* apiVersion/kind not served */
	OWNERS_REF_UNKNOWN,           /* owner's type could not be listed: no verdict */
};

struct owners_ref_resolution {
	enum owners_ref_class class_;
	/* The owner's type as the GC maps it, in the version owners lists;
	 * NULL when the reference does not map. */
	const struct owners_resource *resource;
	/* The object found by namespace and name (RESOLVED, UID_MISMATCH). */
	uint32_t found;
	/* UNKNOWN where the GC cannot look the owner up either, so it acts on
	 * nothing of the dependent and retries: the owner's group/version
	 * failed discovery, or listing its type failed for a reason other
	 * than a refusal of this user (the GC's own lookup would fail the
	 * same way, as far as owners can tell). A forbidden list is not
	 * blind: the GC sees what this user may not. */
	int gc_blind;
};
int owners_graph_resolve_ref(struct owners_graph *g, uint32_t dependent, const struct owners_ref *ref,
			     struct owners_ref_resolution *out);
/* owners_graph_resolve_ref()'s class alone. */
enum owners_ref_class owners_graph_classify_ref(struct owners_graph *g, uint32_t dependent,
						const struct owners_ref *ref);
/* The version of r's resource that owners lists to find owners of that
 * type: the one the GC tracks, else the group's preferred one, else r. */
const struct owners_resource *owners_graph_lookup_type(const struct owners_resource_table *t,
						       const struct owners_resource *r);
const char *owners_ref_class_name(enum owners_ref_class c);

/* Summary counts for `owners graph`. */
struct owners_graph_summary {
	size_t objects;        /* real nodes */
	size_t virtual_owners; /* nodes only referenced */
	size_t edges;          /* ownerReferences */
	size_t roots;          /* real nodes without owners */
	size_t dangling;       /* references not resolved (all classes but resolved/unknown) */
	size_t unknown;        /* references with no verdict */
	size_t cycles;         /* strongly connected groups of 2+ nodes, or self-owners */
	size_t in_deletion;    /* deletionTimestamp set and finalizers left */
};
/* ns NULL: every node. Otherwise the namespace's view: its objects, plus
 * cluster-scoped objects linked to one of them (owner or dependent). */
int owners_graph_in_scope(const struct owners_graph *g, uint32_t node, const char *ns);
/* Whether objects of type r (one that could not be listed, say) could be
 * part of an answer. namespaced_only: the answer's objects are namespaced
 * (a namespace's view, or the dependents of namespaced roots: a
 * cluster-scoped object neither lives in a namespace nor may depend on a
 * namespaced owner), so a cluster-scoped type can hold part of it only
 * when an object of the graph names an owner of that type (a virtual
 * node: looking that owner up needs the type's list). Otherwise every
 * type can. */
int owners_graph_type_can_hold_answer(const struct owners_graph *g, const struct owners_resource *r,
				      int namespaced_only);
/* The same for n types at once, in one pass over the graph: out[k] for
 * types[k]. Returns 0. */
int owners_graph_types_can_hold_answer(const struct owners_graph *g, const struct owners_resource *const *types,
				       size_t n, int namespaced_only, unsigned char *out);
int owners_graph_summarize(struct owners_graph *g, const char *ns, struct owners_graph_summary *out);
/* Marks nodes that sit on an ownership cycle (on_cycle[i] = 1); on_cycle
 * has g->count entries. Returns the number of cycles, or
 * OWNERS_CYCLES_ENOMEM when out of memory (nothing is marked then). */
#define OWNERS_CYCLES_ENOMEM ((size_t)-1)
size_t owners_graph_find_cycles(const struct owners_graph *g, unsigned char *on_cycle);

#endif
