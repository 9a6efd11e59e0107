/* A Lease's renewTime and duration: the controller-manager's liveness. */
#include <string.h>

#include "lease.h"
#include "tap.h"

int main(void)
{
	static const char full[] = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
				   "\"spec\":{\"holderIdentity\":\"kcm_1\",\"leaseDurationSeconds\":15,"
				   "\"renewTime\":\"2026-01-01T00:00:10.123456Z\"}}";
	static const char bare[] = "{\"kind\":\"Lease\",\"spec\":{}}";
	struct owners_lease l;

	ok(owners_lease_parse(&l, full, strlen(full)) == 0, "a lease parses");
	is_int(l.renewed, 1767225610, "renewTime, to the second");
	is_int(l.duration, 15, "leaseDurationSeconds");
	ok(owners_lease_parse(&l, bare, strlen(bare)) == 0 && l.renewed == 0 && l.duration == 0,
	   "a lease never renewed: no time, no duration");
	ok(owners_lease_parse(&l, "{", 1) != 0, "garbage is an error, not a lease");
	ok(owners_lease_parse(&l, "[1]", 3) == 0 && l.renewed == 0, "not an object: nothing read");
	return tap_done();
}
