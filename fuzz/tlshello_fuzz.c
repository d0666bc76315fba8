/* tlshello_fuzz: libFuzzer target for the ClientHello check and the
 * handshake watch. Whatever the bytes, a tunnel passes only with the
 * CONNECT host as its server name, a refusal says why, waiting for more
 * happens only inside one record's bounds, and the watch never passes
 * more than it was given. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "net/tlshello.h"
#include "net/tlswatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The same bytes as both sides' stream, in reads of 7 bytes. */
static void watch(const uint8_t *data, size_t size)
{
	struct tls_watch w = { 0 };
	char sni[HOST_MAX + 1];
	const char *why;
	size_t at = 0, k;
	long n = 1;

	for (size_t i = 0; i < size && !w.done; i += k) {
		k = size - i < 7 ? size - i : 7;
		if (tls_watch_server(&w, data + i, k, &why) < 0) {
			assert(why != NULL);
			break;
		}
	}
	w.done = 0;
	while (at < size && n > 0) {
		n = tls_watch_client(&w, data + at, size - at, "media.test",
		    sni, &why);
		assert(n <= (long)(size - at));
		assert((n == -1) == (why != NULL));
		at += n > 0 ? (size_t)n : 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char sni[HOST_MAX + 1];
	const char *why;
	int rc = tls_hello_check(data, size, "media.test", sni, &why);

	assert(rc == 0 || rc == -1 || rc == HELLO_MORE);
	assert((rc == -1) == (why != NULL));
	assert(strlen(sni) <= HOST_MAX);
	if (rc == 0)
		assert(strcmp(sni, "media.test") == 0);
	if (rc == HELLO_MORE)
		assert(size < RECORD_MAX);
	watch(data, size);
	return 0;
}
