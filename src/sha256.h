/* sha256.h: FIPS 180-4 SHA-256, for the policy digest in audit records. */
#ifndef SBEXEC_SHA256_H
#define SBEXEC_SHA256_H
#include <stddef.h>
void sha256_hex(const void *data, size_t len, char out[65]);
#endif
