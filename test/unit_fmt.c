/* unit_fmt: fmt.c against the C library's printf and inet_ntop (glibc,
 * this driver's libc): every conversion sbexec uses and the rest of the
 * integer and string set, with flags, widths and precisions; the buffer
 * contract (length, truncation, termination); addresses. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "tap.h"

static long diffs;

static void same(const char *want, int wn, const char *got, int gn,
    const char *f)
{
	if (wn == gn && strcmp(want, got) == 0)
		return;
	if (diffs++ < 10)
		printf("# %s: libc [%s] %d, fmt [%s] %d\n", f, want, wn, got, gn);
}

#define CMP(...) do { \
	char a_[300], b_[300]; \
	int ra_ = snprintf(a_, sizeof(a_), __VA_ARGS__); \
	int rb_ = fmt_snprintf(b_, sizeof(b_), __VA_ARGS__); \
	same(a_, ra_, b_, rb_, #__VA_ARGS__); \
} while (0)

static long long any(void)
{
	unsigned long long v = (unsigned long long)rand() << 33 ^
	    (unsigned long long)rand() << 2 ^ (unsigned long long)rand();

	return rand() % 5 == 0 ? rand() % 21 - 10 : (long long)v;
}

static void conversions(void)
{
	static const char *strs[] = { "", "a", "hello world",
	    "0123456789012345678901234567890" };

	for (int i = 0; i < 100000; i++) {
		long long v = any();
		int w = rand() % 25, p = rand() % 25 - 3;
		const char *s = strs[rand() % 4];

		CMP("%d|%i|%u|%x|%X|%o", (int)v, (int)v, (unsigned)v,
		    (unsigned)v, (unsigned)v, (unsigned)v);
		CMP("%lld|%llu|%llx|%ld|%lu|%zu|%jd|%td", v,
		    (unsigned long long)v, (unsigned long long)v, (long)v,
		    (unsigned long)v, (size_t)v, (intmax_t)v, (ptrdiff_t)v);
		CMP("[%*d][%-*d][%0*d][%.*d][%*.*d][%+d][% d][%#x][%#o]",
		    w, (int)v, w, (int)v, w, (int)v, p, (int)v, w, p, (int)v,
		    (int)v, (int)v, (unsigned)v, (unsigned)v);
		CMP("[%*s][%-*s][%.*s][%*.*s][%c][%5c][%-3c]%%", w, s, w, s,
		    p, s, w, p, s, 'A' + i % 26, 'x', 'y');
		CMP("[%02d][%04d][%03o][%03ld][%02x][%04x][%-10s][%-16s]"
		    "[%.80s][%.16s][%hhd][%hd][%hhu][%hu]", (int)(v % 100),
		    (int)v, (unsigned)v & 0777, (long)(v % 1000),
		    (unsigned)v & 0xff, (unsigned)v & 0xffff, s, s, s, s,
		    (signed char)v, (short)v, (unsigned char)v,
		    (unsigned short)v);
		CMP("%.0d|%.0x|%#.0o|%5.0d|%-5d|%+.3d|% 05d|%#X", 0, 0u, 0u,
		    0, (int)v, (int)v, (int)v, (unsigned)v);
	}
	ok(diffs == 0, "integers, strings and characters as libc prints them");
}

static void buffer(void)
{
	int bad = 0;

	for (size_t n = 0; n < 16; n++) {
		char a[16], b[16];
		int ra, rb;

		memset(a, 'Z', sizeof(a));
		memset(b, 'Z', sizeof(b));
		ra = snprintf(a, n, "abc%ddef%s", 12345, "xyz");
		rb = fmt_snprintf(b, n, "abc%ddef%s", 12345, "xyz");
		bad += ra != rb || memcmp(a, b, sizeof(a)) != 0;
	}
	ok(bad == 0, "a short buffer: cut, terminated, the whole length "
	    "returned; size 0 writes nothing");
}

/* Formats the compiler would refuse: what fmt.c does with them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
static void unknown(void)
{
	char b[64];
	int n = fmt_snprintf(b, sizeof(b), "a%%b%Lf%n%", 7);

	ok(n == 9 && strcmp(b, "a%b%Lf%n%") == 0,
	    "a conversion outside the set is printed as written, and reads "
	    "no argument");
}
#pragma GCC diagnostic pop

/* glibc writes an IPv4-compatible address (::/96) dotted, a form RFC
 * 4291 deprecates and fmt_addr does not use: those are left out. */
static void addresses(void)
{
	long bad = 0;

	for (int i = 0; i < 200000; i++) {
		unsigned char x[16];
		char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];

		for (int k = 0; k < 16; k++)
			x[k] = rand() % 3 ? 0 : (unsigned char)rand();
		if (i % 7 == 0) {
			memset(x, 0, 10);
			x[10] = x[11] = 0xff;
		}
		inet_ntop(AF_INET6, x, a, sizeof(a));
		fmt_addr(AF_INET6, x, b, sizeof(b));
		if (strcmp(a, b) != 0 && !(strchr(a, '.') && !strchr(b, '.'))
		    && bad++ < 10)
			printf("# libc [%s] fmt [%s]\n", a, b);
		inet_ntop(AF_INET, x, a, sizeof(a));
		fmt_addr(AF_INET, x, b, sizeof(b));
		bad += strcmp(a, b) != 0;
	}
	ok(bad == 0, "addresses as inet_ntop writes them (RFC 5952)");
}

int main(void)
{
	srand(7);
	conversions();
	buffer();
	unknown();
	addresses();
	return tap_done();
}
