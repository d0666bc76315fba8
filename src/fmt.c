/* fmt.c: printf for sbexec's messages, records and plans: strings,
 * characters and integers, with C's flags, width, precision and length
 * modifiers. No floating point, no %n, no wide characters: sbexec
 * prints none, and musl's vfprintf brings 12 KiB for them (issue 32).
 * A conversion outside this set is printed as written, never read from
 * the arguments, so a format cannot make it misread them.
 *
 * One formatter, three outputs: a buffer (snprintf's contract: the
 * length it would have written, always terminated when N > 0), a FILE
 * and a descriptor. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fmt.h"

struct out {
	char *buf;		/* the buffer, or a chunk for FILE and fd */
	size_t cap, used;	/* what it holds, and what is in it */
	size_t total;		/* every byte formatted */
	FILE *f;
	int fd;			/* -1: not a descriptor */
};

/* For a FILE or a descriptor: a chunk on the stack, written when full. */
#define CHUNK 512

static void flush(struct out *o)
{
	size_t done = 0;
	ssize_t n;

	if (o->f != NULL)
		fwrite(o->buf, 1, o->used, o->f);
	else
		while (o->fd >= 0 && done < o->used) {
			n = write(o->fd, o->buf + done, o->used - done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			done += (size_t)n;
		}
	o->used = 0;
}

static int streamed(const struct out *o)
{
	return o->f != NULL || o->fd >= 0;
}

/* N bytes of S: into the chunk, written whenever it is full, or into
 * the buffer as far as it holds them. */
static void put(struct out *o, const char *s, size_t n)
{
	size_t k;

	o->total += n;
	while (n > 0) {
		if (o->used == o->cap) {
			if (!streamed(o))
				return;
			flush(o);
		}
		k = o->cap - o->used < n ? o->cap - o->used : n;
		memcpy(o->buf + o->used, s, k);
		o->used += k, s += k, n -= k;
	}
}

static void pad(struct out *o, char c, size_t n)
{
	for (; n > 0; n--)
		put(o, &c, 1);
}

struct spec {
	int left, zero, plus, space, alt;
	size_t width;
	int prec;		/* -1: none */
	char len;		/* 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't' */
};

/* S, N bytes, in a field of the width, spaces on the side it asks. */
static void field(struct out *o, const struct spec *sp, const char *s,
    size_t n)
{
	size_t gap = sp->width > n ? sp->width - n : 0;

	if (!sp->left)
		pad(o, ' ', gap);
	put(o, s, n);
	if (sp->left)
		pad(o, ' ', gap);
}

static uintmax_t arg_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':	return (unsigned char)va_arg(*ap, unsigned);
	case 'h':	return (unsigned short)va_arg(*ap, unsigned);
	case 'l':	return va_arg(*ap, unsigned long);
	case 'L':	return va_arg(*ap, unsigned long long);
	case 'z':	return va_arg(*ap, size_t);
	case 'j':	return va_arg(*ap, uintmax_t);
	case 't':	return (uintmax_t)va_arg(*ap, ptrdiff_t);
	default:	return va_arg(*ap, unsigned);
	}
}

static intmax_t arg_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':	return (signed char)va_arg(*ap, int);
	case 'h':	return (short)va_arg(*ap, int);
	case 'l':	return va_arg(*ap, long);
	case 'L':	return va_arg(*ap, long long);
	case 'z':	return (intmax_t)va_arg(*ap, size_t);
	case 'j':	return va_arg(*ap, intmax_t);
	case 't':	return va_arg(*ap, ptrdiff_t);
	default:	return va_arg(*ap, int);
	}
}

/* An integer: sign or prefix, zeros to the precision (or to the width
 * with "0"), then the digits in BASE. */
static void integer(struct out *o, const struct spec *sp, uintmax_t v,
    const char *sign, unsigned base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[3 * sizeof(v) + 1];
	size_t n = 0, lead = strlen(sign), zeros = 0, len;

	for (; v != 0; v /= base)
		tmp[sizeof(tmp) - ++n] = digits[v % base];
	if (sp->prec > 0 && (size_t)sp->prec > n)
		zeros = (size_t)sp->prec - n;
	else if (sp->prec < 0 && n == 0)
		zeros = 1;		/* 0 is "0", but "%.0d" of 0 is "" */
	if (base == 8 && sp->alt && zeros == 0)
		zeros = 1;		/* "#": an octal number starts with 0 */
	len = lead + zeros + n;
	if (sp->zero && !sp->left && sp->prec < 0 && sp->width > len)
		zeros += sp->width - len, len = sp->width;
	if (!sp->left)
		pad(o, ' ', sp->width > len ? sp->width - len : 0);
	put(o, sign, lead);
	pad(o, '0', zeros);
	put(o, tmp + sizeof(tmp) - n, n);
	if (sp->left)
		pad(o, ' ', sp->width > len ? sp->width - len : 0);
}

static void number(struct out *o, const struct spec *sp, char c,
    va_list *ap)
{
	intmax_t s;
	uintmax_t u;

	if (c == 'd' || c == 'i') {
		s = arg_signed(sp, ap);
		u = s < 0 ? -(uintmax_t)s : (uintmax_t)s;
		integer(o, sp, u, s < 0 ? "-" : sp->plus ? "+" :
		    sp->space ? " " : "", 10, 0);
	} else if (c == 'p') {
		u = (uintptr_t)va_arg(*ap, void *);
		integer(o, sp, u, "0x", 16, 0);
	} else {
		u = arg_unsigned(sp, ap);
		integer(o, sp, u, sp->alt && u != 0 && (c == 'x' || c == 'X') ?
		    (c == 'x' ? "0x" : "0X") : "", c == 'o' ? 8 : c == 'u' ?
		    10 : 16, c == 'X');
	}
}

/* The flags, width, precision and length of the conversion at *F,
 * which is left at its conversion character. */
static void parse(const char **f, struct spec *sp, va_list *ap)
{
	const char *p = *f;
	int w;

	*sp = (struct spec){ .prec = -1 };
	for (;; p++)
		if (*p == '-') sp->left = 1;
		else if (*p == '0') sp->zero = 1;
		else if (*p == '+') sp->plus = 1;
		else if (*p == ' ') sp->space = 1;
		else if (*p == '#') sp->alt = 1;
		else break;
	if (*p == '*') {
		p++;
		if ((w = va_arg(*ap, int)) < 0)
			sp->left = 1, w = w == INT_MIN ? INT_MAX : -w;
		sp->width = (size_t)w;
	}
	for (; *p >= '0' && *p <= '9'; p++)
		sp->width = sp->width * 10 + (size_t)(*p - '0');
	if (*p == '.') {
		p++;
		sp->prec = 0;
		if (*p == '*') {
			p++;
			sp->prec = va_arg(*ap, int);
			sp->prec = sp->prec < 0 ? -1 : sp->prec;
		}
		for (; *p >= '0' && *p <= '9'; p++)
			sp->prec = sp->prec * 10 + (*p - '0');
	}
	if (*p == 'h' || *p == 'l') {
		sp->len = p[1] == *p ? (*p == 'h' ? 'H' : 'L') : *p;
		p += p[1] == *p ? 2 : 1;
	} else if (*p == 'z' || *p == 'j' || *p == 't') {
		sp->len = *p++;
	}
	*f = p;
}

static void conversion(struct out *o, const char **f, va_list *ap)
{
	const char *start = *f - 1, *s;
	struct spec sp;
	char c;

	parse(f, &sp, ap);
	c = *(*f)++;
	if (c == 's') {
		s = va_arg(*ap, const char *);
		s = s ? s : "(null)";
		field(o, &sp, s, sp.prec < 0 ? strlen(s) :
		    strnlen(s, (size_t)sp.prec));
	} else if (c == 'c') {
		c = (char)va_arg(*ap, int);
		field(o, &sp, &c, 1);
	} else if (c != '\0' && strchr("diuxXop", c) != NULL) {
		number(o, &sp, c, ap);
	} else if (c == '%') {
		put(o, "%", 1);
	} else {
		if (c == '\0')
			(*f)--;
		put(o, start, (size_t)(*f - start));
	}
}

static int format(struct out *o, const char *f, va_list ap)
{
	va_list aq;
	const char *pct;

	va_copy(aq, ap);
	while (*f != '\0') {
		pct = strchrnul(f, '%');
		put(o, f, (size_t)(pct - f));
		f = pct;
		if (*f == '%') {
			f++;
			conversion(o, &f, &aq);
		}
	}
	va_end(aq);
	if (streamed(o))
		flush(o);
	else if (o->buf != NULL)
		o->buf[o->used] = '\0';
	return o->total > INT_MAX ? -1 : (int)o->total;
}

int fmt_vsnprintf(char *buf, size_t n, const char *f, va_list ap)
{
	/* Room for the terminating '\0'; none at all when N is 0. */
	struct out o = { .buf = n ? buf : NULL, .cap = n ? n - 1 : 0,
	    .fd = -1 };

	return format(&o, f, ap);
}

int fmt_snprintf(char *buf, size_t n, const char *f, ...)
{
	va_list ap;
	int r;

	va_start(ap, f);
	r = fmt_vsnprintf(buf, n, f, ap);
	va_end(ap);
	return r;
}

int fmt_vfprintf(FILE *fp, const char *f, va_list ap)
{
	char chunk[CHUNK];
	struct out o = { .buf = chunk, .cap = sizeof(chunk), .f = fp,
	    .fd = -1 };

	return format(&o, f, ap);
}

int fmt_fprintf(FILE *fp, const char *f, ...)
{
	va_list ap;
	int r;

	va_start(ap, f);
	r = fmt_vfprintf(fp, f, ap);
	va_end(ap);
	return r;
}

int fmt_dprintf(int fd, const char *f, ...)
{
	char chunk[CHUNK];
	struct out o = { .buf = chunk, .cap = sizeof(chunk), .fd = fd };
	va_list ap;
	int r;

	va_start(ap, f);
	r = format(&o, f, ap);
	va_end(ap);
	return r;
}

/* An IPv6 address as RFC 5952 writes it: groups in lower-case hex
 * without leading zeros, the first longest run of two or more zero
 * groups as "::", and an IPv4-mapped address's last 32 bits dotted. */
static void addr6(const unsigned char *a, char *buf, size_t n)
{
	int mapped = memcmp(a, "\0\0\0\0\0\0\0\0\0\0\377\377", 12) == 0;
	int groups = mapped ? 6 : 8, best = -1, bestlen = 1, i, j;
	size_t k = 0;

	for (i = 0; i < groups; i = j + 1) {
		for (j = i; j < groups && a[2 * j] == 0 && a[2 * j + 1] == 0;)
			j++;
		if (j - i > bestlen)
			best = i, bestlen = j - i;
	}
	buf[0] = '\0';
	for (i = 0; i < groups && k < n; i++) {
		if (i == best) {
			k += (size_t)fmt_snprintf(buf + k, n - k, "::");
			i += bestlen - 1;
			continue;
		}
		k += (size_t)fmt_snprintf(buf + k, n - k, "%s%x",
		    k == 0 || buf[k - 1] == ':' ? "" : ":",
		    a[2 * i] << 8 | a[2 * i + 1]);
	}
	if (mapped && k < n)
		fmt_snprintf(buf + k, n - k, "%s%u.%u.%u.%u",
		    k == 0 || buf[k - 1] == ':' ? "" : ":", a[12], a[13],
		    a[14], a[15]);
}

const char *fmt_addr(int family, const void *a, char *buf, size_t n)
{
	const unsigned char *b = a;

	if (n == 0)
		return buf;
	if (family == AF_INET6)
		addr6(b, buf, n);
	else
		fmt_snprintf(buf, n, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}
