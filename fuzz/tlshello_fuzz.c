/* tlshello_fuzz: libFuzzer target for the ClientHello check. Whatever
 * the bytes, a tunnel passes only with the CONNECT host as its server
 * name, a refusal says why, and waiting for more happens only inside
 * one record's bounds. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "net/tlshello.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	return 0;
}
