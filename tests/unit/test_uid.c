/* UIDs kept as 16 bytes (lib/core/uid.c): which texts pack, that they
 * come back the same, and that bytes order, equal and hash as the texts
 * do. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "uid.h"

static int packs(const char *text)
{
	union owners_uid u;

	return owners_uid_pack(&u, text);
}

/* a kept as it would be: bytes when it packs, else a pointer */
static int keep(union owners_uid *u, const char *text)
{
	if (owners_uid_pack(u, text))
		return 0;
	u->text = text;
	return 1;
}

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

int main(void)
{
	static const char *const texts[] = {
		"00000000-0000-4000-8000-000000000001", "0a0b0c0d-1111-4222-8333-944455556666",
		"10000000-0000-4000-8000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
		"9f8e7d6c-5b4a-4938-8271-605f4e3d2c1b", "uid-web",
		"FFFFFFFF-0000-4000-8000-000000000000", "",
		"00000000-0000-4000-8000-00000000000",  "0a0b0c0d-1111-4222-8333-9444555566667",
	};
	const size_t n = sizeof(texts) / sizeof(*texts);
	union owners_uid u, v;
	char buf[OWNERS_UID_TEXT_SIZE];
	size_t i, k;
	int bad = 0;

	ok(packs("5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5a"),
	   "a UUID as the apiserver writes it packs");
	ok(!packs("5B2D1F3C-8A9E-4C7D-B6A5-0F1E2D3C4B5A"),
	   "uppercase does not (its text would not come back)");
	ok(!packs("5b2d1f3c8a9e4c7db6a50f1e2d3c4b5a"), "nor without its dashes");
	ok(!packs("5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5"), "nor one character short");
	ok(!packs("5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5a0"), "nor one character long");
	ok(!packs("5b2d1f3c-8a9e-4c7d-b6a50-f1e2d3c4b5a"), "nor with a dash moved");
	ok(!packs("5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5g"), "nor with a letter past f");
	ok(!packs("u1") && !packs("") && !packs(NULL), "nor short text, nothing or NULL");
	ok(owners_uid_pack(&u, "5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5a") &&
		   !strcmp(owners_uid_text(&u, 0, buf), "5b2d1f3c-8a9e-4c7d-b6a5-0f1e2d3c4b5a"),
	   "its text comes back the same");
	u.text = "uid-web";
	ok(owners_uid_text(&u, 1, buf) == u.text, "text kept as text is the text itself");
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++) {
			int ti, tk, want = sign(strcmp(texts[i], texts[k]));

			ti = keep(&u, texts[i]);
			tk = keep(&v, texts[k]);
			if (owners_uid_cmp(&u, ti, &v, tk) != want ||
			    owners_uid_equal(&u, ti, &v, tk) != (want == 0) ||
			    (want == 0 && owners_uid_hash(&u, ti) != owners_uid_hash(&v, tk))) {
				printf("# %s against %s\n", texts[i], texts[k]);
				bad++;
			}
		}
	is_int(bad, 0,
	       "every pair, bytes or text, orders as strcmp orders their texts, is equal as they "
	       "are, "
	       "and hashes alike when equal");
	{
		union owners_uid q;
		int packed = owners_uid_pack(&q, texts[1]);

		keep(&u, texts[1]);
		ok(owners_uid_equal(&u, 0, &q, !packed), "equal: the UID its text says");
		keep(&u, texts[2]);
		ok(!owners_uid_equal(&u, 0, &q, !packed), "equal: not another");
		keep(&u, "uid-web");
		v.text = "uid-web";
		ok(owners_uid_equal(&u, 1, &v, 1), "equal: text against text");
	}
	return tap_done();
}
