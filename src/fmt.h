/* fmt.h: printf without floating point (fmt.c): what sbexec prints. */
#ifndef SBEXEC_FMT_H
#define SBEXEC_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define FMT_CHECK(f, a) __attribute__((format(printf, f, a)))

int fmt_snprintf(char *buf, size_t n, const char *f, ...) FMT_CHECK(3, 4);
int fmt_vsnprintf(char *buf, size_t n, const char *f, va_list ap)
	FMT_CHECK(3, 0);
int fmt_fprintf(FILE *fp, const char *f, ...) FMT_CHECK(2, 3);
int fmt_vfprintf(FILE *fp, const char *f, va_list ap) FMT_CHECK(2, 0);
#define fmt_printf(...) fmt_fprintf(stdout, __VA_ARGS__)
int fmt_dprintf(int fd, const char *f, ...) FMT_CHECK(2, 3);

/* The address A of FAMILY (AF_INET or AF_INET6) as RFC 5952 writes it
 * (inet_ntop's form; of two longest runs of zeros the first is "::", as
 * glibc has it), into BUF of N bytes (INET6_ADDRSTRLEN holds any); BUF. */
const char *fmt_addr(int family, const void *a, char *buf, size_t n);

#endif
