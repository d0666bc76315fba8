/* util.c: the two error helpers (STYLE.md habit 7) and allocation that
 * cannot return NULL: running out of memory is a failure of sbexec (125). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fmt.h"
#include "util.h"

static void vmsg(const char *fmt, va_list ap, int errnum)
	__attribute__((format(printf, 1, 0)));

static int (*msg_sink)(const char *, size_t);

void util_msg_sink(int (*sink)(const char *line, size_t len))
{
	msg_sink = sink;
}

static void vmsg_sink(const char *fmt, va_list ap, int errnum)
	__attribute__((format(printf, 1, 0)));

/* One line, for the sink: cut to fit one write to a pipe. */
static void vmsg_sink(const char *fmt, va_list ap, int errnum)
{
	char line[4096];
	int n = fmt_snprintf(line, sizeof(line), "sbexec: ");

	n += fmt_vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (errnum != 0 && (size_t)n < sizeof(line))
		n += fmt_snprintf(line + n, sizeof(line) - (size_t)n, ": %s",
		    strerror(errnum));
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	msg_sink(line, (size_t)n);
}

static void vmsg(const char *fmt, va_list ap, int errnum)
{
	if (msg_sink != NULL) {
		vmsg_sink(fmt, ap, errnum);
		return;
	}
	fputs("sbexec: ", stderr);
	fmt_vfprintf(stderr, fmt, ap);
	if (errnum != 0)
		fmt_fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	fflush(stderr);
}

void die(int status, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, errnum);
	va_end(ap);
	exit(status);
}

void diex(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	exit(status);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		diex(EXIT_SBEXEC, "out of memory");
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		diex(EXIT_SBEXEC, "out of memory");
	p = realloc(p, n * size != 0 ? n * size : 1);
	if (p == NULL)
		diex(EXIT_SBEXEC, "out of memory");
	return p;
}

void *vfork_stack(void)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));

	return stack + sizeof(stack);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		diex(EXIT_SBEXEC, "out of memory");
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	fmt_vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void strv_push(struct strv *sv, const char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 16;
		sv->v = xreallocarray(sv->v, sv->cap, sizeof(*sv->v));
	}
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

void strv_pushn(struct strv *sv, const char *const *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strv_push(sv, items[i]);
}

void strv_add(struct strv *sv, const char *a, const char *b, const char *c)
{
	strv_push(sv, a);
	if (b != NULL)
		strv_push(sv, b);
	if (c != NULL)
		strv_push(sv, c);
}

void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	*sv = (struct strv){ 0 };
}

const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int read_number(FILE *f, unsigned long long *v)
{
	int c, digits = 0;

	while ((c = getc(f)) == ' ' || c == '\n' || c == '\t')
		;
	for (*v = 0; c >= '0' && c <= '9' && *v < ULLONG_MAX / 10 - 1;
	    c = getc(f), digits++)
		*v = *v * 10 + (unsigned long long)(c - '0');
	return digits > 0 && (c == EOF || c == ' ' || c == '\n');
}

long long dec_number(const char *s, char **end)
{
	const char *p = s + strspn(s, " \t"), *digits;
	int neg = *p == '-';
	unsigned long long v = 0, max = (unsigned long long)LLONG_MAX + !!neg;

	for (digits = p += neg; *p >= '0' && *p <= '9'; p++)
		v = v > max / 10 ? max : v * 10 + (unsigned long long)(*p - '0');
	if (end != NULL)
		*end = (char *)(p == digits ? s : p);
	v = v > max ? max : v;
	return neg ? (long long)(0 - v) : (long long)v;
}

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int same_inode(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
