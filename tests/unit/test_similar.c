/* "Did you mean": the distance between words (lib/core/similar.c). */
#include "similar.h"
#include "tap.h"

int main(void)
{
	is_int((long)owners_similar_distance("tree", "tree", 2), 0, "the same word: 0");
	is_int((long)owners_similar_distance("trree", "tree", 2), 1, "a letter too many: 1");
	is_int((long)owners_similar_distance("tre", "tree", 2), 1, "a letter missing: 1");
	is_int((long)owners_similar_distance("trea", "tree", 2), 1, "a letter wrong: 1");
	is_int((long)owners_similar_distance("deploymnet", "deployment", 2), 1, "two letters swapped: 1");
	is_int((long)owners_similar_distance("Deployment", "deployment", 2), 0, "case does not count");
	is_int((long)owners_similar_distance("graph", "dangling", 2), 3, "far apart: past the limit, limit + 1");
	is_int((long)owners_similar_distance("", "abc", 5), 3, "from nothing: one per letter");
	is_int((long)owners_similar_distance("abc", "", 5), 3, "to nothing: one per letter");
	ok(owners_similar_close("trree", "tree"), "trree: tree meant");
	ok(owners_similar_close("deploymnet", "deployments"), "deploymnet: deployments meant (2 edits)");
	ok(!owners_similar_close("tree", "tree"), "the word itself is never suggested");
	ok(!owners_similar_close("gc", "why"), "two letters: nothing close");
	ok(!owners_similar_close("pod", "node"), "a short word: one edit at most (pod, node: 2)");
	ok(owners_similar_close("pdo", "pod"), "but a swap in it is one");
	return tap_done();
}
