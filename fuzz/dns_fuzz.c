/* dns_fuzz: libFuzzer target for dns.c's reading of a reply. Whatever
 * the bytes, a reply to the query is one only with its id and question,
 * at most ADDRS_MAX addresses are taken, each of its family's length,
 * and only NOERROR takes any. The input is the reply after its first
 * two bytes, which are the query's id, so that most inputs reach the
 * records. */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "net/dns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned char q[] = { 0xab, 0xcd, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
	5, 'm', 'e', 'd', 'i', 'a', 4, 't', 'e', 's', 't', 0, 0, 28, 0, 1 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char r[600];
	struct name_answer a;
	size_t n = size + 2 < sizeof(r) ? size + 2 : sizeof(r);
	int rc;

	memset(&a, 0, sizeof(a));
	memcpy(r, q, 2);
	memcpy(r + 2, data, n - 2);
	rc = dns_reply(r, n, q, sizeof(q), &a);
	assert(rc >= -1 && rc <= 15);
	assert(rc == -1 || memcmp(r + 12, q + 12, sizeof(q) - 12) == 0);
	assert(a.n >= 0 && a.n <= ADDRS_MAX && (a.more == 0 || a.n == ADDRS_MAX));
	assert(rc == 0 || a.n == 0);
	for (int i = 0; i < a.n; i++)
		assert(a.addr[i].family == AF_INET ||
		    a.addr[i].family == AF_INET6);
	return 0;
}
