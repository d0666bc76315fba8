/* unit_sha256.c: TAP test of sha256_hex against FIPS 180-4 vectors and
 * block-boundary inputs whose digests were precomputed with sha256sum. */
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int testno;

static void check(const char *name, const void *data, size_t len,
                  const char *want)
{
    char got[65];
    sha256_hex(data, len, got);
    testno++;
    if (strcmp(got, want) == 0) {
        printf("ok %d - %s\n", testno, name);
    } else {
        printf("not ok %d - %s\n#   got:  %s\n#   want: %s\n", testno, name,
               got, want);
        failures++;
    }
}

/* Byte i of the boundary inputs is (i*31+7) mod 256. */
static void check_boundary(size_t len, const char *want)
{
    unsigned char buf[65];
    char name[32];
    for (size_t i = 0; i < len; i++)
        buf[i] = (unsigned char)((i * 31u + 7u) & 0xffu);
    snprintf(name, sizeof name, "%zu-byte input", len);
    check(name, buf, len, want);
}

int main(void)
{
    static const char abc448[] =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    size_t mlen = 1000000;
    char *million = malloc(mlen);
    if (million == NULL) {
        printf("Bail out! malloc failed\n");
        return 1;
    }
    memset(million, 'a', mlen);
    printf("1..9\n");
    check("empty string", "", 0,
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check("\"abc\"", "abc", 3,
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check("448-bit message", abc448, strlen(abc448),
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    check("one million 'a'", million, mlen,
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
    check_boundary(55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b");
    check_boundary(56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63");
    check_boundary(63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076");
    check_boundary(64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd");
    check_boundary(65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0");
    return failures ? 1 : 0;
}
