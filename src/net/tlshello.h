/* tlshello.h: the first bytes of a CONNECT tunnel (DESIGN 11). sbexec's
 * proxy does not terminate TLS, so the only name it can hold a tunnel to
 * is the one the ClientHello asks the origin for: its server_name must
 * be the CONNECT host. Pure: no system call (a libFuzzer target and
 * test/unit_net.c drive it). */
#ifndef SBEXEC_TLSHELLO_H
#define SBEXEC_TLSHELLO_H

#include <stddef.h>

#include "policy/netpolicy.h"

#define RECORD_MAX (5 + 16384)	/* a TLS record's header and plaintext */

enum { HELLO_MORE = 1 };

/* Is BUF[LEN] the start of a tunnel that may pass? HELLO_MORE while the
 * first record has not all arrived; 0 when it is one TLS record holding
 * a whole ClientHello whose one host_name, normalised into SNI
 * (HOST_MAX + 1 bytes), is HOST; -1 with the reason in *WHY (static)
 * otherwise. SNI holds the name sent whenever one was read. */
int tls_hello_check(const unsigned char *buf, size_t len, const char *host,
    char *sni, const char **why);

#endif
